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
