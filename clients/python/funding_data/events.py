"""The change events: GET /v1/events page by page, and GET /v1/stream consumed with automatic resume."""

import codecs
import http.client
import json
import socket
import threading
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, Optional, Sequence, Union
from urllib.parse import urlencode, urljoin, urlsplit

from .errors import FundingDataError, error_from_response
from .sse import SseParser

if TYPE_CHECKING:
    from .client import FundingDataClient

__all__ = ["EventStream", "iter_events"]

# Event types: a list, or the API's comma-separated text.
EventTypes = Union[str, Sequence[str], None]


def _joined(value: EventTypes) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


def iter_events(
    client: "FundingDataClient", after: Optional[str] = None, types: EventTypes = None, limit: Optional[int] = None
) -> Iterator[Dict[str, Any]]:
    """Every event after ``after`` (without it, the oldest kept), oldest first, one by one: pages through
    GET /v1/events following ``has_more``, each page asked for after the last event of the one before."""
    while True:
        page = client.list_events(after=after, types=_joined(types), limit=limit)["data"]
        for event in page["items"]:
            yield event
        if not page["has_more"] or not page["items"]:
            return
        after = page["items"][-1]["id"]


class EventStream:
    """GET /v1/stream, consumed: iterate it to get each event (a dict) as it is written.

    A connection that drops (a network failure, a restart, the server ending it, or ``idle_timeout``
    seconds of silence: the server sends a heartbeat every 15 s) is opened again after a backoff with
    ``Last-Event-ID`` set to the last event yielded, so the server replays what was written meanwhile:
    no event is missed or yielded twice while that id is within the 7 days events are kept. 401, 403
    and 400 answers raise FundingDataError; a 429 (too many streams open) is waited out per its
    Retry-After up to the client's ``max_retries`` times in a row. ``close()`` (from any thread), leaving
    a ``with`` block or closing the iterator ends it.

    Before the first event, a reconnect without ``after`` starts from what is written next: pass
    ``after`` (e.g. the last id you stored) to be exact from the very start.

    Attributes:
        last_event_id: the id of the last event yielded, what a reconnect resumes after.
        reconnects: how many times the stream was opened again after a connection ended.
    """

    def __init__(
        self,
        client: "FundingDataClient",
        query: Dict[str, Any],
        *,
        idle_timeout: float = 45.0,
        max_reconnect_attempts: Optional[int] = None,
        on_comment: Optional[Callable[[str], None]] = None,
        on_reconnect: Optional[Callable[[Optional[str], Optional[BaseException]], None]] = None,
    ) -> None:
        self._client = client
        self._query = query
        self.idle_timeout = idle_timeout
        self.max_reconnect_attempts = max_reconnect_attempts
        self._on_comment = on_comment
        self._on_reconnect = on_reconnect
        self.last_event_id: Optional[str] = None
        self.reconnects = 0
        self._closed = threading.Event()
        self._connection: Optional[http.client.HTTPConnection] = None

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return self._events()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def close(self) -> None:
        """Ends the stream: the iteration stops, the connection is closed (also while it waits for data)."""
        self._closed.set()
        connection = self._connection
        if connection is not None and connection.sock is not None:
            try:
                connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _events(self) -> Iterator[Dict[str, Any]]:
        client = self._client
        failures = 0
        refusals = 0
        try:
            while not self._closed.is_set():
                try:
                    response = self._open()
                except FundingDataError as error:
                    if self._closed.is_set():
                        return
                    if error.status == 429:
                        wait = float(error.retry_after or 1)
                        if refusals >= client.max_retries or wait > client.max_retry_delay:
                            raise
                        refusals += 1
                        self._closed.wait(wait)
                        continue
                    if error.status < 500 or self._gave_up(failures):
                        raise
                    self._closed.wait(client._backoff(failures))
                    failures += 1
                    continue
                except (OSError, http.client.HTTPException):
                    if self._closed.is_set():
                        return
                    if self._gave_up(failures):
                        raise
                    self._closed.wait(client._backoff(failures))
                    failures += 1
                    continue
                refusals = 0
                ended: Optional[BaseException] = None
                try:
                    for event in self._read(response):
                        failures = 0
                        self.last_event_id = event["id"]
                        yield event
                        if self._closed.is_set():
                            return
                except (OSError, http.client.HTTPException) as error:
                    ended = error
                finally:
                    self._disconnect()
                if self._closed.is_set():
                    return
                self.reconnects += 1
                if self._on_reconnect is not None:
                    self._on_reconnect(self.last_event_id, ended)
                self._closed.wait(client._backoff(failures))
                failures += 1
        finally:
            self._disconnect()

    def _gave_up(self, failures: int) -> bool:
        return self.max_reconnect_attempts is not None and failures >= self.max_reconnect_attempts

    def _open(self) -> http.client.HTTPResponse:
        client = self._client
        values = {name: str(value) for name, value in self._query.items() if value is not None}
        url = urljoin(client.base_url, "/v1/stream")
        parts = urlsplit(url)
        path = parts.path + ("?" + urlencode(values) if values else "")
        connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        connection = connection_class(parts.hostname, parts.port, timeout=client.timeout)
        headers = {
            "Authorization": "Bearer " + client.api_key,
            "Accept": "text/event-stream",
            "Accept-Encoding": "identity",
            "User-Agent": "funding-data-python/1.0",
        }
        # Last-Event-ID wins over ?after= on the server: a reconnect resumes after the last event yielded.
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        self._connection = connection
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
        except BaseException:
            self._disconnect()
            raise
        if response.status != 200:
            raw = response.read()
            self._disconnect()
            raise error_from_response(response.status, response.headers, raw, response.reason)
        # From here on the socket's timeout is the longest silence accepted before reconnecting.
        if connection.sock is not None:
            connection.sock.settimeout(self.idle_timeout)
        return response

    def _read(self, response: http.client.HTTPResponse) -> Iterator[Dict[str, Any]]:
        parser = SseParser()
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while not self._closed.is_set():
            chunk = response.read1(65536)
            if not chunk:
                return
            for kind, value in parser.push(decoder.decode(chunk)):
                if kind == "comment" and self._on_comment is not None:
                    self._on_comment(str(value))
                elif kind == "message":
                    yield json.loads(value["data"])  # type: ignore[index]

    def _disconnect(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
