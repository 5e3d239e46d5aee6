"""Client for the Funding Opportunity Data Service /v1 API (standard library only)."""

from .client import FundingDataClient
from .errors import FundingDataError

__all__ = ["FundingDataClient", "FundingDataError"]
