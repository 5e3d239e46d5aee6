"""An incremental parser of Server-Sent Events (``text/event-stream``), as the WHATWG rules read it."""

import re
from typing import List, Optional, Tuple

__all__ = ["SseParser"]

_LINE_END = re.compile(r"\r\n|\r|\n")

# What a chunk completed, in order: ("message", {"id": ..., "event": ..., "data": ...}),
# ("comment", text) for lines starting with ":" (heartbeats) and ("retry", milliseconds).
Item = Tuple[str, object]


class SseParser:
    """Feed it text as it arrives, in chunks cut anywhere (mid-line, between "\\r" and "\\n"); ``push``
    returns what each chunk completed. Pure: no I/O."""

    def __init__(self) -> None:
        self._buffer = ""
        self._pending_cr = False
        self._id: Optional[str] = None
        self._event = ""
        self._data: List[str] = []
        self._has_data = False

    def push(self, chunk: str) -> List[Item]:
        items: List[Item] = []
        if self._pending_cr and chunk.startswith("\n"):
            chunk = chunk[1:]
        self._pending_cr = False
        self._buffer += chunk
        while True:
            match = _LINE_END.search(self._buffer)
            if match is None:
                break
            # A "\r" that ends the buffer may be the first half of "\r\n": the line ends here either way.
            if match.group(0) == "\r" and match.end() == len(self._buffer):
                self._pending_cr = True
            line = self._buffer[: match.start()]
            self._buffer = self._buffer[match.end():]
            self._line(line, items)
        return items

    def _line(self, line: str, items: List[Item]) -> None:
        if line == "":
            if self._has_data:
                message = {"event": self._event or "message", "data": "\n".join(self._data)}
                if self._id is not None:
                    message["id"] = self._id
                items.append(("message", message))
            self._id, self._event, self._data, self._has_data = None, "", [], False
            return
        if line.startswith(":"):
            items.append(("comment", line[1:].strip()))
            return
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
            self._has_data = True
        elif field == "event":
            self._event = value
        elif field == "id" and "\0" not in value:
            self._id = value
        elif field == "retry" and value.isdigit():
            items.append(("retry", int(value)))
