import gzip
import json
from typing import Any, Dict, List, Optional


class FundingDataError(Exception):
    """A failed call: the API's error envelope as an exception.

    ``code`` is stable (match on it, not on ``message``): VALIDATION_ERROR, UNAUTHORIZED, FORBIDDEN,
    NOT_FOUND, METHOD_NOT_ALLOWED, IDEMPOTENCY_CONFLICT, RATE_LIMITED, INTERNAL_ERROR,
    VENUE_UNAVAILABLE (an exchange a quote needs did not answer in time; retried like any 5xx), or
    UNEXPECTED_RESPONSE for an answer that is not the API's JSON (a proxy's error page, say).
    ``request_id`` is what to quote when reporting a problem.
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int,
        request_id: Optional[str],
        retry_after: Optional[int] = None,
        details: Optional[List[Dict[str, Any]]] = None,
    ) -> None:
        suffix = " [{}]".format(request_id) if request_id else ""
        super().__init__("{} ({}): {}{}".format(code, status, message, suffix))
        self.code = code
        self.message = message
        self.status = status
        self.request_id = request_id
        self.retry_after = retry_after
        self.details = details


def body_text(raw: bytes, headers: Any) -> str:
    """The body as text, gunzipped when the server sent it compressed."""
    if (headers.get("Content-Encoding") or "").strip().lower() == "gzip":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")


def error_from_response(status: int, headers: Any, raw: bytes, reason: str) -> FundingDataError:
    """The API's error envelope of an answer (status, headers, raw body) as a FundingDataError."""
    text = body_text(raw, headers)
    request_id = headers.get("X-Request-Id")
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or "code" not in error:
        return FundingDataError("UNEXPECTED_RESPONSE", text[:200] or reason, status, request_id)
    retry_after = error.get("retry_after")
    header = headers.get("Retry-After")
    if retry_after is None and header and header.isdigit():
        retry_after = int(header)
    return FundingDataError(
        error["code"],
        error.get("message", ""),
        status,
        (body.get("meta") or {}).get("request_id", request_id),
        retry_after,
        error.get("details"),
    )
