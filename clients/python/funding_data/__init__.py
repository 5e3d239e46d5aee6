"""Client for the Funding Opportunity Data Service /v1 API (standard library only)."""

from .client import FundingDataClient
from .errors import FundingDataError
from .events import EventStream
from .sse import SseParser
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = ["EventStream", "FundingDataClient", "FundingDataError", "SseParser", "WebhookVerificationError", "verify_webhook"]
