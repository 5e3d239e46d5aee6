import json
import os
import random
import time
import urllib.error
import urllib.request
import uuid
from collections import OrderedDict
from typing import Any, Callable, Dict, Iterator, Optional, Tuple
from urllib.parse import urlencode, urljoin

from ._operations import Operations
from .events import EventStream, EventTypes, iter_events
from .errors import FundingDataError, body_text, error_from_response

__all__ = ["FundingDataClient"]


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class FundingDataClient(Operations):
    """The Funding Opportunity Data Service /v1 API.

    One method per operation (list_opportunities, get_opportunity, ...), ``iter_...`` methods over every
    page of a list; each call returns the response body, ``{"data": ..., "meta": ...}``, and raises
    FundingDataError on failure.

    Args:
        api_key: svc_sk_live_... or svc_sk_test_...; defaults to the FUNDING_DATA_API_KEY environment variable.
        base_url: where the service runs, e.g. https://data.example.com; defaults to FUNDING_DATA_BASE_URL.
        max_retries: retries after the first attempt, on 429 and (for reads) on 5xx and network failures; 0 turns retrying off.
        retry_base_delay: first backoff in seconds after a 5xx or network failure, doubled each retry.
        max_retry_delay: longest single wait in seconds; a 429 asking for longer is raised at once.
        timeout: seconds per attempt.
        conditional_cache_size: how many GET answers to keep with their ETag (0 keeps none). Asked for again,
            they are sent with If-None-Match, and a 304 Not Modified returns the kept body (its ``meta`` is
            that of the answer that carried it). A 304 still counts against the key's rate limit; it saves
            the body's transfer and parsing.

    Bodies are asked for gzip-compressed (``Accept-Encoding: gzip``) and decompressed here.

    Beside the generated calls, by hand: ``iter_events`` (GET /v1/events, page by page) and
    ``stream_events`` (GET /v1/stream, resumed after every dropped connection).
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        max_retries: int = 3,
        retry_base_delay: float = 0.5,
        max_retry_delay: float = 30.0,
        timeout: float = 30.0,
        conditional_cache_size: int = 100,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api_key = api_key or os.environ.get("FUNDING_DATA_API_KEY")
        self.base_url = base_url or os.environ.get("FUNDING_DATA_BASE_URL")
        if not self.api_key:
            raise ValueError("No API key: pass api_key or set FUNDING_DATA_API_KEY")
        if not self.base_url:
            raise ValueError("No base URL: pass base_url or set FUNDING_DATA_BASE_URL")
        self.max_retries = max_retries
        self.retry_base_delay = retry_base_delay
        self.max_retry_delay = max_retry_delay
        self.timeout = timeout
        self.conditional_cache_size = conditional_cache_size
        self._sleep = sleep
        # URL -> (ETag, body text) of the GET answers kept for If-None-Match, least recently used first.
        self._kept: "OrderedDict[str, Tuple[str, str]]" = OrderedDict()

    def _request(
        self, method: str, path: str, query: Optional[Dict[str, Any]] = None, body: Optional[Dict[str, Any]] = None
    ) -> Dict[str, Any]:
        url = urljoin(self.base_url, path)
        values = {name: _query_value(value) for name, value in (query or {}).items() if value is not None}
        if values:
            url += "?" + urlencode(values)
        headers = {
            "Authorization": "Bearer " + self.api_key,
            "Accept": "application/json",
            "Accept-Encoding": "gzip",
            "User-Agent": "funding-data-python/1.0",
        }
        kept = self._kept.get(url) if method == "GET" else None
        if kept is not None:
            headers["If-None-Match"] = kept[0]
        # Reads are safe to retry; a POST carries one Idempotency-Key across all its attempts, so the
        # server does its work once however many times a lost answer makes us send it. PATCH and DELETE
        # are not retried after a failure the server may have acted on (a 429 was refused before any work).
        if method == "POST":
            headers["Idempotency-Key"] = str(uuid.uuid4())
        idempotent = method in ("GET", "POST")
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode("utf-8")
        attempt = 0
        while True:
            request = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    text = body_text(response.read(), response.headers)
                    etag = response.headers.get("ETag")
                    if method == "GET" and etag:
                        self._keep(url, (etag, text))
                    return json.loads(text)
            except urllib.error.HTTPError as http_error:
                # urllib reports a 304 as an error; it means the kept answer is still the answer.
                if http_error.code == 304 and kept is not None:
                    http_error.close()
                    self._keep(url, kept)
                    return json.loads(kept[1])
                error = _to_error(http_error)
                wait = self._retry_delay(error, idempotent, attempt) if attempt < self.max_retries else None
                if wait is None:
                    raise error from None
            except (urllib.error.URLError, TimeoutError, ConnectionError):
                if not idempotent or attempt >= self.max_retries:
                    raise
                wait = self._backoff(attempt)
            self._sleep(wait)
            attempt += 1

    def iter_events(
        self, after: Optional[str] = None, types: EventTypes = None, limit: Optional[int] = None
    ) -> Iterator[Dict[str, Any]]:
        """Every change event after ``after`` (without it, the oldest kept), oldest first, one by one,
        paging through GET /v1/events; ``types`` a list or comma-separated text; ``limit`` the page size."""
        return iter_events(self, after, types, limit)

    def stream_events(
        self,
        *,
        exchange: Optional[str] = None,
        exchanges: EventTypes = None,
        min_apr: Optional[float] = None,
        symbol: Optional[str] = None,
        types: EventTypes = None,
        after: Optional[str] = None,
        idle_timeout: float = 45.0,
        max_reconnect_attempts: Optional[int] = None,
        on_comment: Optional[Callable[[str], None]] = None,
        on_reconnect: Optional[Callable[[Optional[str], Optional[BaseException]], None]] = None,
    ) -> EventStream:
        """The change events as they are written (GET /v1/stream): ``for event in api.stream_events(...)``.

        The filters are those of list_opportunities plus ``types``; ``after`` replays from an event id
        first. Reconnects by itself with ``Last-Event-ID`` after a dropped connection (see EventStream):
        ``idle_timeout`` seconds of silence count as one; ``max_reconnect_attempts`` failed attempts in a
        row (network, 5xx) raise (default: no limit). ``on_comment(text)`` sees every comment
        (``connected``, ``heartbeat``); ``on_reconnect(last_event_id, error)`` runs before each reconnect.
        """
        query = {
            "exchange": exchange,
            "exchanges": exchanges if exchanges is None or isinstance(exchanges, str) else ",".join(exchanges),
            "min_apr": None if min_apr is None else _query_value(min_apr),
            "symbol": symbol,
            "types": types if types is None or isinstance(types, str) else ",".join(types),
            "after": after,
        }
        return EventStream(
            self,
            query,
            idle_timeout=idle_timeout,
            max_reconnect_attempts=max_reconnect_attempts,
            on_comment=on_comment,
            on_reconnect=on_reconnect,
        )

    def _keep(self, url: str, answer: Tuple[str, str]) -> None:
        """Keeps ``answer`` as the most recent, dropping the least recently used past ``conditional_cache_size``."""
        self._kept.pop(url, None)
        if self.conditional_cache_size <= 0:
            return
        self._kept[url] = answer
        while len(self._kept) > self.conditional_cache_size:
            self._kept.popitem(last=False)

    def _paginate(self, method: str, path: str, query: Dict[str, Any]) -> Iterator[Dict[str, Any]]:
        offset = 0
        while True:
            page = self._request(method, path, dict(query, offset=offset))["data"]
            for item in page["items"]:
                yield item
            if not page["has_more"] or not page["items"]:
                return
            offset += len(page["items"])

    def _retry_delay(self, error: FundingDataError, idempotent: bool, attempt: int) -> Optional[float]:
        """Seconds to wait before retrying, or None when this failure is not worth retrying."""
        if error.status == 429:
            wait = float(error.retry_after or 1)
            return wait if wait <= self.max_retry_delay else None
        if error.status >= 500 and idempotent:
            return self._backoff(attempt)
        return None

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter, so clients that failed together do not retry together."""
        ceiling = min(self.max_retry_delay, self.retry_base_delay * (2 ** attempt))
        return ceiling / 2 + random.random() * ceiling / 2


def _to_error(http_error: urllib.error.HTTPError) -> FundingDataError:
    return error_from_response(http_error.code, http_error.headers, http_error.read(), str(http_error.reason))
