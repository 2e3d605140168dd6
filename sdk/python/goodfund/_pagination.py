"""Iteration over the API's paged lists: ``{ data: [...], pagination }``."""

from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable, Iterator, Mapping


def _next_position(page: Mapping[str, Any], position: dict[str, Any]) -> dict[str, Any] | None:
    """What to ask for after ``page``: a cursor, a page number, or None at the end."""
    pagination = page["pagination"]
    if "nextCursor" in pagination:
        cursor = pagination["nextCursor"]
        # A server repeating the cursor it was given would loop forever: stop instead.
        if cursor is None or cursor == position.get("cursor"):
            return None
        return {"cursor": cursor}
    if not pagination.get("hasMore") or not page["data"]:
        return None
    return {"page": pagination["page"] + 1}


def paginate(fetch_page: Callable[..., Mapping[str, Any]]) -> Iterator[Any]:
    """Every item of a paged list, fetching page after page as the loop asks for more.

    ``fetch_page`` is called with the position of the page wanted as keyword arguments, none
    for the first page, then ``cursor=`` (cursor-paged lists such as donations, until
    ``pagination.nextCursor`` is null) or ``page=`` (page-paged lists such as campaigns, while
    ``pagination.hasMore``), and returns the page::

        for donation in paginate(lambda **position: client.list_donations("demo", limit=100, **position)):
            print(donation["id"])

    The clients' ``iter_...`` methods do this for every paged list operation.
    """
    position: dict[str, Any] = {}
    while True:
        page = fetch_page(**position)
        yield from page["data"]
        following = _next_position(page, position)
        if following is None:
            return
        position = following


async def apaginate(fetch_page: Callable[..., Awaitable[Mapping[str, Any]]]) -> AsyncIterator[Any]:
    """``paginate`` for ``AsyncGoodfund``: ``fetch_page`` returns an awaitable page; use ``async for``."""
    position: dict[str, Any] = {}
    while True:
        page = await fetch_page(**position)
        for item in page["data"]:
            yield item
        following = _next_position(page, position)
        if following is None:
            return
        position = following
