"""Checking a webhook request the way the Standard Webhooks specification says."""

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Callable, Dict, Optional, Sequence, Union

__all__ = ["WebhookVerificationError", "verify_webhook"]

_SECRET_PREFIX = "whsec_"


class WebhookVerificationError(ValueError):
    """A webhook request that is not provably from the service (or is too old to accept): answer it
    with a 4xx. ``reason`` is stable: MISSING_HEADERS, INVALID_TIMESTAMP, TIMESTAMP_TOO_OLD,
    TIMESTAMP_TOO_NEW, INVALID_SECRET, NO_MATCHING_SIGNATURE or INVALID_PAYLOAD."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__("{}: {}".format(reason, message))
        self.reason = reason


def _header(headers: Any, name: str) -> Optional[str]:
    """A header from a dict, http.server's message or any mapping, whatever the case of its names."""
    items = headers.items() if hasattr(headers, "items") else headers
    for key, value in items:
        if key.lower() == name:
            return value
    return None


def _key(secret: str) -> bytes:
    text = secret[len(_SECRET_PREFIX):] if secret.startswith(_SECRET_PREFIX) else secret
    try:
        key = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if not key:
        raise WebhookVerificationError("INVALID_SECRET", "the secret is not whsec_ and base64")
    return key


def verify_webhook(
    body: Union[bytes, str],
    headers: Any,
    secret: Union[str, Sequence[str]],
    *,
    tolerance: float = 300,
    now: Optional[Callable[[], float]] = None,
) -> Dict[str, Any]:
    """Checks a webhook request and returns its event (the parsed body).

    ``webhook-signature`` must hold a ``v1,`` signature (of several, space-separated, any one) equal to
    the base64 HMAC-SHA256 of ``<webhook-id>.<webhook-timestamp>.<raw body>`` keyed with the secret's
    bytes (the base64 after ``whsec_``), compared in constant time; and ``webhook-timestamp`` must be
    within ``tolerance`` seconds of now (default 5 minutes), so a captured request cannot be replayed later.

    Args:
        body: the body exactly as received (bytes, or text), not parsed and serialised again.
        headers: the request's headers (a dict, or ``self.headers`` of http.server, Flask's, Django's ...).
        secret: the endpoint's ``whsec_...`` secret, or several (the old and new one while a roll's overlap lasts).
        tolerance: how far the timestamp may be from now, either way, in seconds.
        now: the clock in seconds since the epoch (default time.time).

    Raises:
        WebhookVerificationError: with ``reason``.
    """
    webhook_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not webhook_id or not timestamp or not signatures:
        raise WebhookVerificationError("MISSING_HEADERS", "webhook-id, webhook-timestamp and webhook-signature are all required")
    timestamp = timestamp.strip()
    if not timestamp.isdigit():
        raise WebhookVerificationError("INVALID_TIMESTAMP", "webhook-timestamp is not whole seconds")
    seconds = int(timestamp)
    current = int((now or time.time)())
    if seconds < current - tolerance:
        raise WebhookVerificationError("TIMESTAMP_TOO_OLD", "sent at {}, more than {} s ago".format(seconds, tolerance))
    if seconds > current + tolerance:
        raise WebhookVerificationError("TIMESTAMP_TOO_NEW", "sent at {}, more than {} s ahead".format(seconds, tolerance))

    raw = body.encode("utf-8") if isinstance(body, str) else bytes(body)
    signed = "{}.{}.".format(webhook_id, timestamp).encode("utf-8") + raw
    candidates = [s[3:].encode("ascii", "replace") for s in signatures.split(" ") if s.startswith("v1,")]
    for one in [secret] if isinstance(secret, str) else list(secret):
        expected = base64.b64encode(hmac.new(_key(one), signed, hashlib.sha256).digest())
        # compare_digest takes as long whatever the first difference: the comparison leaks nothing.
        if any(hmac.compare_digest(expected, candidate) for candidate in candidates):
            try:
                return json.loads(raw.decode("utf-8"))
            except ValueError:
                raise WebhookVerificationError("INVALID_PAYLOAD", "the signed body is not JSON") from None
    raise WebhookVerificationError("NO_MATCHING_SIGNATURE", "no v1 signature matches the body with this secret")
