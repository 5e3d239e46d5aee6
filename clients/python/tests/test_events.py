"""The Python client's push-delivery helpers: the events iterator and the resuming stream consumer against
a real server (events written while consuming, connections cut mid-stream), the SSE parser, and the
webhook verifier against the Standard Webhooks test vector and a delivery the server signed and sent.
Run through `npm run test:clients`, whose server (tests/support/client-test-server.ts) also answers on a
control port: POST /events appends events, POST /drop-streams cuts every open stream."""

import base64
import http.server
import json
import os
import threading
import unittest
import urllib.request

from funding_data import FundingDataClient, FundingDataError, SseParser, WebhookVerificationError, verify_webhook

BASE_URL = os.environ["FUNDING_DATA_BASE_URL"]
KEYS = json.loads(os.environ["FUNDING_DATA_TEST_KEYS"])
CONTROL_URL = os.environ["FUNDING_DATA_TEST_CONTROL_URL"]


def client(key: str, **options) -> FundingDataClient:
    return FundingDataClient(KEYS[key] if key in KEYS else key, BASE_URL, retry_base_delay=0.01, **options)


def control(method: str, path: str):
    request = urllib.request.Request(CONTROL_URL + path, method=method)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def append_events(count: int, exchange: str = "okx", mode: str = "live"):
    return control("POST", "/events?mode={}&count={}&exchange={}".format(mode, count, exchange))


def take(events, count: int):
    ids = []
    for event in events:
        ids.append(event["id"])
        if len(ids) == count:
            return ids
    raise AssertionError("the stream ended after {} of {} events".format(len(ids), count))


class EventsIteratorTest(unittest.TestCase):
    def test_pages_through_the_events_after_a_given_id(self):
        start = append_events(1)[0]
        ids = append_events(250)
        events = list(client("desk").iter_events(after=start, limit=100))
        self.assertEqual([e["id"] for e in events], ids)
        self.assertEqual((events[0]["type"], events[0]["mode"], events[0]["data"]["exchange"]), ("venue.stale", "live", "okx"))
        self.assertEqual(list(client("desk").iter_events(after=start, types=["venue.recovered", "opportunity.opened"])), [])
        self.assertEqual(len(list(client("desk").iter_events(after=start, types="venue.stale", limit=1000))), 250)
        # A test key reads the sandbox's log, which holds none of these.
        self.assertEqual([e for e in client("test").iter_events(after=start) if e["id"] in ids], [])

    def test_raises_the_api_error_for_a_refused_query(self):
        with self.assertRaises(FundingDataError) as caught:
            list(client("desk").iter_events(after="evt_1"))
        self.assertEqual((caught.exception.code, caught.exception.status), ("VALIDATION_ERROR", 400))


class EventStreamTest(unittest.TestCase):
    def test_resumes_after_a_dropped_connection_with_no_gap_and_no_repeat(self):
        first = append_events(3)
        requests_before = len(control("GET", "/stream-requests"))
        reconnects = []
        stream = client("desk").stream_events(
            after=first[0], types=["venue.stale"], on_reconnect=lambda last, error: reconnects.append(last)
        )
        with stream:
            events = iter(stream)
            # Replayed from the log after `after`, then live.
            self.assertEqual(take(events, 2), first[1:])
            second = append_events(2)
            self.assertEqual(take(events, 1), second[:1])
            self.assertEqual(control("POST", "/drop-streams"), {"dropped": 1})
            third = append_events(2)  # written while the client is cut off
            self.assertEqual(take(events, 3), [second[1]] + third)
            fourth = append_events(1)
            self.assertEqual(take(events, 1), fourth)
        self.assertGreaterEqual(stream.reconnects, 1)
        self.assertEqual(stream.last_event_id, fourth[0])
        headers = control("GET", "/stream-requests")[requests_before:]
        self.assertIsNone(headers[0])  # the first connection asks with ?after=
        # Each reconnect named the last event yielded before it.
        self.assertEqual(headers[1:], reconnects)
        for event_id in reconnects:
            self.assertIn(event_id, first + second)

    def test_passes_the_filters_on(self):
        start = append_events(1)[0]
        append_events(2, exchange="okx")
        binance = append_events(1, exchange="binance")
        with client("desk").stream_events(after=start, exchange="binance", types="venue.stale") as stream:
            self.assertEqual(take(iter(stream), 1), binance)

    def test_ends_on_close_from_another_thread_and_on_leaving_the_loop(self):
        connected = threading.Event()
        stream = client("desk").stream_events(on_comment=lambda text: text == "connected" and connected.set())
        seen = []
        consumer = threading.Thread(target=lambda: seen.extend(stream))
        consumer.start()
        self.assertTrue(connected.wait(30))
        stream.close()
        consumer.join(30)
        self.assertFalse(consumer.is_alive())
        self.assertEqual(seen, [])

        start = append_events(1)[0]
        append_events(3)
        count = 0
        for event in client("desk").stream_events(after=start):
            self.assertEqual(event["type"], "venue.stale")
            count += 1
            if count == 2:
                break
        self.assertEqual(count, 2)

    def test_raises_401_once_its_key_is_revoked(self):
        secret = control("POST", "/keys")["secret"]
        comments = []
        connected = threading.Event()

        def on_comment(text):
            comments.append(text)
            if text == "connected":
                connected.set()

        stream = client(secret).stream_events(on_comment=on_comment)
        failures = []

        def consume():
            try:
                list(stream)
            except FundingDataError as error:
                failures.append(error)

        consumer = threading.Thread(target=consume)
        consumer.start()
        self.assertTrue(connected.wait(30))
        control("POST", "/revoke?secret=" + secret)
        consumer.join(30)
        self.assertFalse(consumer.is_alive())
        self.assertEqual([(e.code, e.status) for e in failures], [("UNAUTHORIZED", 401)])
        self.assertIn("stream closed: the key is no longer valid", comments)
        self.assertEqual(stream.reconnects, 1)

    def test_raises_401_and_403_without_retrying(self):
        requests_before = len(control("GET", "/stream-requests"))
        with self.assertRaises(FundingDataError) as unauthorized:
            next(iter(client("svc_sk_live_notakeyatallnotakeyatall").stream_events()))
        self.assertEqual((unauthorized.exception.code, unauthorized.exception.status), ("UNAUTHORIZED", 401))
        with self.assertRaises(FundingDataError) as forbidden:
            next(iter(client("free").stream_events()))
        self.assertEqual((forbidden.exception.code, forbidden.exception.status), ("FORBIDDEN", 403))
        self.assertEqual(len(control("GET", "/stream-requests")) - requests_before, 2)

    def test_waits_out_a_429_a_bounded_number_of_times_then_raises_it(self):
        streams, threads = [], []
        for _ in range(2):
            connected = threading.Event()
            stream = client("pro").stream_events(on_comment=lambda text, c=connected: text == "connected" and c.set())
            thread = threading.Thread(target=lambda s=stream: list(s))
            thread.start()
            self.assertTrue(connected.wait(30))
            streams.append(stream)
            threads.append(thread)
        try:
            requests_before = len(control("GET", "/stream-requests"))
            with self.assertRaises(FundingDataError) as refused:
                next(iter(client("pro", max_retries=1).stream_events()))
            self.assertEqual((refused.exception.code, refused.exception.status, refused.exception.retry_after), ("RATE_LIMITED", 429, 1))
            self.assertEqual(len(control("GET", "/stream-requests")) - requests_before, 2)  # the first try and one retry
        finally:
            for stream in streams:
                stream.close()
            for thread in threads:
                thread.join(30)
        self.assertFalse(any(thread.is_alive() for thread in threads))


class SseParserTest(unittest.TestCase):
    TEXT = 'retry: 3000\r\n: connected\r\n\r\nid: evt_1\nevent: venue.stale\ndata: {"a":\ndata: 1}\n\n: heartbeat\r\rdata:x\n\n'
    EXPECTED = [
        ("retry", 3000),
        ("comment", "connected"),
        ("message", {"id": "evt_1", "event": "venue.stale", "data": '{"a":\n1}'}),
        ("comment", "heartbeat"),
        ("message", {"event": "message", "data": "x"}),
    ]

    def test_reads_chunks_cut_anywhere_with_any_line_ending(self):
        self.assertEqual(SseParser().push(self.TEXT), self.EXPECTED)
        for size in range(1, 8):
            parser = SseParser()
            items = []
            for at in range(0, len(self.TEXT), size):
                items.extend(parser.push(self.TEXT[at:at + size]))
            self.assertEqual(items, self.EXPECTED, "chunks of {}".format(size))

    def test_sends_nothing_for_a_message_without_data_and_holds_an_unfinished_one(self):
        parser = SseParser()
        self.assertEqual(parser.push("event: x\n\nid: 1\ndata: y"), [])
        self.assertEqual(parser.push("\n"), [])
        self.assertEqual(parser.push("\n"), [("message", {"id": "1", "event": "message", "data": "y"})])


# The Standard Webhooks specification's test vector.
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = '{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def vector_headers(signature=SIGNATURE, timestamp=TIMESTAMP, webhook_id=MSG_ID):
    return {"Webhook-Id": webhook_id, "webhook-timestamp": str(timestamp), "webhook-signature": signature}


def at(seconds):
    return lambda: float(seconds)


class VerifyWebhookTest(unittest.TestCase):
    def refusal(self, *args, **kwargs) -> str:
        with self.assertRaises(WebhookVerificationError) as caught:
            verify_webhook(*args, **kwargs)
        return caught.exception.reason

    def test_accepts_the_standard_webhooks_test_vector(self):
        self.assertEqual(verify_webhook(BODY, vector_headers(), SECRET, now=at(TIMESTAMP)), {"test": 2432232314})
        self.assertEqual(verify_webhook(BODY.encode(), vector_headers(), SECRET, now=at(TIMESTAMP)), {"test": 2432232314})
        several = "v1," + "A" * 43 + "= v1a,abc nonsense " + SIGNATURE
        self.assertEqual(verify_webhook(BODY, vector_headers(several), SECRET, now=at(TIMESTAMP)), {"test": 2432232314})
        other = "whsec_" + base64.b64encode(b"other").decode()
        self.assertEqual(verify_webhook(BODY, vector_headers(), [other, SECRET], now=at(TIMESTAMP)), {"test": 2432232314})

    def test_refuses_a_changed_body_id_or_signature_another_secret_and_missing_headers(self):
        now = at(TIMESTAMP)
        self.assertEqual(self.refusal('{"test": 2432232315}', vector_headers(), SECRET, now=now), "NO_MATCHING_SIGNATURE")
        self.assertEqual(self.refusal(BODY, vector_headers(webhook_id="msg_other"), SECRET, now=now), "NO_MATCHING_SIGNATURE")
        self.assertEqual(self.refusal(BODY, vector_headers(SIGNATURE.replace("g0h", "g0i")), SECRET, now=now), "NO_MATCHING_SIGNATURE")
        self.assertEqual(self.refusal(BODY, vector_headers(SIGNATURE.replace("v1,", "v2,")), SECRET, now=now), "NO_MATCHING_SIGNATURE")
        another = "whsec_" + base64.b64encode(b"another key").decode()
        self.assertEqual(self.refusal(BODY, vector_headers(), another, now=now), "NO_MATCHING_SIGNATURE")
        self.assertEqual(self.refusal(BODY, {"webhook-id": MSG_ID}, SECRET, now=now), "MISSING_HEADERS")
        self.assertEqual(self.refusal(BODY, vector_headers(timestamp="soon"), SECRET, now=now), "INVALID_TIMESTAMP")
        self.assertEqual(self.refusal(BODY, vector_headers(), "whsec_", now=now), "INVALID_SECRET")

    def test_refuses_a_timestamp_outside_the_tolerance_either_way(self):
        self.assertEqual(verify_webhook(BODY, vector_headers(), SECRET, now=at(TIMESTAMP + 300)), {"test": 2432232314})
        self.assertEqual(self.refusal(BODY, vector_headers(), SECRET, now=at(TIMESTAMP + 301)), "TIMESTAMP_TOO_OLD")
        self.assertEqual(self.refusal(BODY, vector_headers(), SECRET, now=at(TIMESTAMP - 301)), "TIMESTAMP_TOO_NEW")
        self.assertEqual(verify_webhook(BODY, vector_headers(), SECRET, tolerance=3600, now=at(TIMESTAMP + 3600)), {"test": 2432232314})
        # Without a clock of its own, the vector (from 2021) is long past.
        self.assertEqual(self.refusal(BODY, vector_headers(), SECRET), "TIMESTAMP_TOO_OLD")

    def test_verifies_a_real_delivery_the_server_signed_and_sent(self):
        received = []
        arrived = threading.Event()

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                received.append((body, self.headers))
                self.send_response(200)
                self.end_headers()
                arrived.set()

            def log_message(self, *args):
                pass

        receiver = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        thread = threading.Thread(target=receiver.serve_forever)
        thread.start()
        api = client("desk")
        try:
            url = "http://127.0.0.1:{}/hooks".format(receiver.server_address[1])
            endpoint = api.create_webhook_endpoint({"url": url, "event_types": ["venue.stale"]})["data"]
            api.send_webhook_test_event(endpoint["id"], {"type": "venue.stale"})
            self.assertTrue(arrived.wait(30))
        finally:
            receiver.shutdown()
            receiver.server_close()
            thread.join()
        body, headers = received[0]
        event = verify_webhook(body, headers, endpoint["secret"])
        self.assertEqual((event["type"], event["mode"], event["test"], event["data"]["status"]), ("venue.stale", "live", True, "stale"))
        self.assertEqual(self.refusal(body + b" ", headers, endpoint["secret"]), "NO_MATCHING_SIGNATURE")
        api.delete_webhook_endpoint(endpoint["id"])


if __name__ == "__main__":
    unittest.main()
