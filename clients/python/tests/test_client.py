"""The Python client against a real server: run through `npm run test:clients`, which starts one
(scripts/test-python-client.ts) and passes its address and seeded keys in the environment."""

import json
import os
import re
import time
import unittest
import urllib.error
import urllib.request
from unittest import mock

from funding_data import FundingDataClient, FundingDataError

BASE_URL = os.environ["FUNDING_DATA_BASE_URL"]
KEYS = json.loads(os.environ["FUNDING_DATA_TEST_KEYS"])
LIVE_OPPORTUNITIES = int(os.environ["FUNDING_DATA_LIVE_OPPORTUNITIES"])


def client(key: str, **options) -> FundingDataClient:
    return FundingDataClient(KEYS[key] if key in KEYS else key, BASE_URL, retry_base_delay=0.01, **options)


def snake(name: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), name)


class ClientTest(unittest.TestCase):
    def test_has_a_method_for_every_operation_in_the_served_document(self):
        with urllib.request.urlopen(BASE_URL + "/v1/openapi.json") as response:
            document = json.loads(response.read())
        # Answers that are not JSON (the event stream, the CSV/Parquet export) are not generated calls:
        # clients read those bodies by hand.
        operation_ids = [
            op["operationId"]
            for item in document["paths"].values()
            for op in item.values()
            if "application/json" in op["responses"].get("200", {}).get("content", {})
        ]
        self.assertGreaterEqual(len(operation_ids), 5)
        for operation_id in operation_ids:
            self.assertTrue(callable(getattr(client("desk"), snake(operation_id), None)), operation_id)

    def test_reads_key_and_base_url_from_the_environment(self):
        os.environ["FUNDING_DATA_API_KEY"] = KEYS["desk"]
        try:
            body = FundingDataClient(base_url=BASE_URL).verify_key()
        finally:
            del os.environ["FUNDING_DATA_API_KEY"]
        self.assertEqual(body["data"]["tier"], "desk")
        with self.assertRaises(ValueError):
            FundingDataClient(base_url=BASE_URL)

    def test_sends_the_key_and_returns_the_envelope(self):
        body = client("desk").verify_key()
        self.assertEqual(body["data"]["valid"], True)
        self.assertEqual(body["data"]["mode"], "live")
        self.assertRegex(body["meta"]["request_id"], r"^req_[0-9A-Za-z]{24}$")

    def test_calls_every_route(self):
        api = client("desk")
        page = api.list_opportunities(limit=2, min_apr=20, sort="apr")
        self.assertEqual([o["apr"] for o in page["data"]["items"]], [20, 25])
        self.assertTrue(page["data"]["has_more"])
        first = page["data"]["items"][0]["id"]
        self.assertEqual(api.get_opportunity(first)["data"]["id"], first)
        self.assertIn("binance", [e["id"] for e in api.list_exchanges()["data"]["items"]])
        rates = api.list_funding_rates(exchange="okx", symbol="eth", from_="2026-11-01", to="2026-11-20T00:00:00Z")
        self.assertEqual(rates["meta"]["from"], "2026-11-01T00:00:00.000Z")
        sandbox = client("test").list_funding_rates(exchange="binance", symbol="BTC", limit=5)
        self.assertEqual(sandbox["meta"]["mode"], "test")
        self.assertEqual(len(sandbox["data"]["items"]), 5)
        simulation = api.create_simulation({"opportunity_id": first, "notional_usd": 1000, "holding_days": 7})["data"]
        self.assertEqual(simulation["opportunity_id"], first)
        self.assertEqual(api.get_simulation(simulation["id"])["data"], simulation)
        self.assertIn(simulation["id"], [s["id"] for s in api.iter_simulations()])
        # A quote at a size, with the account's own fee once set (test keys: the sandbox's books).
        fees = api.update_account_fees({"binance": 0.0001})["data"]["items"]
        self.assertEqual([v["taker_fee"] for v in fees if v["exchange"] == "binance"], [0.0001])
        quote = client("test").get_opportunity_quote("BTC-binance-bybit", notional=50000, hold_hours=24, leverage=2)["data"]
        self.assertEqual((quote["notional_usd"], quote["hold_hours"]), (50000, 24))
        binance = quote["long"] if quote["long"]["exchange"] == "binance" else quote["short"]
        self.assertEqual(binance["taker_fee_source"], "account")
        api.update_account_fees({"binance": None})
        self.assertEqual([v["account_taker_fee"] for v in api.get_account_fees()["data"]["items"] if v["exchange"] == "binance"], [None])

    def test_asks_again_with_if_none_match_and_returns_the_kept_body_on_304(self):
        real_urlopen = urllib.request.urlopen
        seen = []

        def recording(request, timeout=None):
            sent = request.get_header("If-none-match")
            try:
                response = real_urlopen(request, timeout=timeout)
            except urllib.error.HTTPError as error:
                seen.append((sent, error.code, None))
                raise
            seen.append((sent, response.status, response.headers.get("Content-Encoding")))
            return response

        api = client("desk")
        with mock.patch("urllib.request.urlopen", recording):
            first = api.list_opportunities(limit=8)
            second = api.list_opportunities(limit=8)
            api.list_opportunities(limit=3)
            forgetful = client("desk", conditional_cache_size=0)
            forgetful.list_opportunities(limit=8)
            forgetful.list_opportunities(limit=8)
        self.assertEqual(second, first)
        self.assertEqual(len(first["data"]["items"]), 8)
        # The page is over a kilobyte: it came gzip-compressed, and was read all the same.
        self.assertEqual(seen[0], (None, 200, "gzip"))
        self.assertRegex(seen[1][0], r'^"[A-Za-z0-9_-]+-gzip"$')
        self.assertEqual(seen[1][1], 304)
        self.assertEqual([s[:2] for s in seen[2:]], [(None, 200), (None, 200), (None, 200)])

    def test_iterates_over_every_page(self):
        ids = [o["id"] for o in client("desk").iter_opportunities(limit=3)]
        self.assertEqual(len(ids), LIVE_OPPORTUNITIES)
        self.assertEqual(len(set(ids)), len(ids))

    def test_raises_typed_errors(self):
        with self.assertRaises(FundingDataError) as forbidden:
            client("free").list_opportunities()
        self.assertEqual((forbidden.exception.code, forbidden.exception.status), ("FORBIDDEN", 403))
        self.assertRegex(forbidden.exception.request_id, r"^req_")
        with self.assertRaises(FundingDataError) as invalid:
            client("desk").list_opportunities(limit=1000)
        self.assertEqual((invalid.exception.code, invalid.exception.status), ("VALIDATION_ERROR", 400))
        self.assertEqual(invalid.exception.details[0]["field"], "limit")
        with self.assertRaises(FundingDataError) as unauthorized:
            client("svc_sk_live_nope").verify_key()
        self.assertEqual(unauthorized.exception.status, 401)
        with self.assertRaises(FundingDataError) as missing:
            client("desk").get_opportunity("NOPE/with slash")
        self.assertEqual((missing.exception.code, missing.exception.status), ("NOT_FOUND", 404))

    def test_waits_out_a_429_and_raises_when_retries_are_off(self):
        limited = client("rateLimitedEveryOther")
        outcomes = []
        for _ in range(2):
            try:
                client("rateLimitedEveryOther", max_retries=0).verify_key()
                outcomes.append("ok")
            except FundingDataError as error:
                outcomes.append((error.code, error.status, error.retry_after))
        self.assertIn(("RATE_LIMITED", 429, 1), outcomes)
        self.assertIn("ok", outcomes)
        started = time.monotonic()
        for _ in range(2):
            self.assertTrue(limited.verify_key()["data"]["valid"])
        self.assertGreaterEqual(time.monotonic() - started, 0.95)

    def test_does_not_wait_longer_than_max_retry_delay(self):
        impatient = client("rateLimitedEveryOther", max_retry_delay=0.5)
        codes = []
        for _ in range(2):
            try:
                impatient.verify_key()
                codes.append("ok")
            except FundingDataError as error:
                codes.append(error.code)
        self.assertEqual(sorted(codes), ["RATE_LIMITED", "ok"])

    def test_retries_a_500_and_gives_up_after_max_retries(self):
        self.assertTrue(client("failingEveryOther").verify_key()["data"]["valid"])
        once = client("failingEveryOther", max_retries=0)
        codes = []
        for _ in range(2):
            try:
                once.verify_key()
                codes.append("ok")
            except FundingDataError as error:
                codes.append((error.code, error.status))
        self.assertEqual(sorted(codes, key=str), sorted([("INTERNAL_ERROR", 500), "ok"], key=str))

    def test_sends_one_idempotency_key_on_every_attempt_of_a_post(self):
        note = "lost answer %d" % time.time_ns()
        real_urlopen = urllib.request.urlopen
        keys_sent = []

        def losing_first_answer(request, timeout=None):
            response = real_urlopen(request, timeout=timeout)  # the server does the work...
            if request.get_method() != "POST":
                return response
            keys_sent.append(request.get_header("Idempotency-key"))
            if len(keys_sent) == 1:
                response.close()
                raise urllib.error.URLError("connection reset")  # ...and the answer never arrives
            return response

        desk = client("desk", max_retries=2)
        opportunity = desk.list_opportunities(limit=1)["data"]["items"][0]
        with mock.patch("urllib.request.urlopen", losing_first_answer):
            created = desk.create_portfolio_position({"opportunity_id": opportunity["id"], "notional_usd": 1000, "note": note})
        self.assertEqual(created["data"]["note"], note)
        self.assertEqual(len(keys_sent), 2)
        self.assertRegex(keys_sent[0], r"^[0-9a-f-]{36}$")
        self.assertEqual(keys_sent[0], keys_sent[1])
        positions = desk.list_portfolio_positions(limit=100)["data"]["items"]
        self.assertEqual(len([p for p in positions if p["note"] == note]), 1)

    def test_retries_network_failures_bounded(self):
        waits = []
        unreachable = FundingDataClient(KEYS["desk"], "http://127.0.0.1:9", max_retries=2, retry_base_delay=0.01, sleep=waits.append)
        with self.assertRaises(urllib.error.URLError):
            unreachable.verify_key()
        self.assertEqual(len(waits), 2)
        self.assertTrue(all(0 < w <= 0.02 for w in waits))


if __name__ == "__main__":
    unittest.main()
