"""The client's rules without a server: retries and their keys (httpx's MockTransport stands in
for the network), paging, Retry-After and backoff arithmetic, webhook signatures."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from email.utils import format_datetime
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

import httpx
import pytest

from goodfund import (
    ApiConnectionError,
    ApiError,
    AsyncGoodfund,
    Goodfund,
    RetryOptions,
    WebhookVerificationError,
    paginate,
    verify_webhook,
)
from goodfund._retry import backoff, retry_after_seconds
from goodfund.webhooks import sign_webhook

FAST = RetryOptions(base_delay=0.001, max_delay=0.005)


def client_answering(answer: Callable[[httpx.Request, int], httpx.Response], **options: Any) -> tuple[Goodfund, list[httpx.Request]]:
    """A client whose requests are answered by `answer(request, n)` (n from 1), recording them."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        request.read()
        seen.append(request)
        return answer(request, len(seen))

    options.setdefault("retries", FAST)
    return Goodfund("https://give.example.org", http_client=httpx.Client(transport=httpx.MockTransport(handler)), **options), seen


def error(status: int, message: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json={"error": message, "status": status}, headers=headers)


def test_each_post_gets_its_own_idempotency_key_a_callers_key_is_kept_and_get_sends_none() -> None:
    client, seen = client_answering(lambda r, n: httpx.Response(201, json={"ok": n}), api_key="gf_test_abc")
    client.create_organization({"name": "One"})
    client.create_organization({"name": "Two"})
    client.create_organization({"name": "Three"}, idempotency_key="my-own-key")
    client.list_organizations()
    keys = [r.headers.get("idempotency-key") for r in seen]
    assert keys[0] and keys[1] and keys[0] != keys[1]
    assert keys[2:] == ["my-own-key", None]
    assert {r.headers["authorization"] for r in seen} == {"Bearer gf_test_abc"}
    assert json.loads(seen[0].content) == {"name": "One"}
    assert seen[0].headers["content-type"] == "application/json"


def test_a_429_is_retried_after_its_retry_after_with_the_same_key_and_body() -> None:
    client, seen = client_answering(
        lambda r, n: error(429, "Too many requests", {"retry-after": "0"}) if n == 1 else httpx.Response(201, json={"id": "org_1"}),
        token="session-jwt",
    )
    assert client.create_organization({"name": "Retry Fund"}) == {"id": "org_1"}
    assert len(seen) == 2
    assert seen[0].headers["idempotency-key"] == seen[1].headers["idempotency-key"]
    assert seen[0].content == seen[1].content
    assert seen[1].headers["authorization"] == "Bearer session-jwt"


def test_a_retry_after_longer_than_max_retry_after_is_not_waited_for() -> None:
    client, seen = client_answering(lambda r, n: error(429, "Too many requests", {"retry-after": "120"}))
    with pytest.raises(ApiError) as raised:
        client.list_organizations()
    assert (raised.value.status, len(seen)) == (429, 1)
    assert raised.value.headers["retry-after"] == "120"


def test_503_is_tried_max_attempts_times_then_raised() -> None:
    client, seen = client_answering(lambda r, n: error(503, "Service unavailable"), retries=RetryOptions(max_attempts=4, base_delay=0.001, max_delay=0.002))
    with pytest.raises(ApiError) as raised:
        client.get_campaign("cmp_1")
    assert (raised.value.status, len(seen)) == (503, 4)


@pytest.mark.parametrize("status,message", [(400, "Validation failed"), (404, "Campaign not found"), (409, "Slug already taken"), (500, "Internal server error")])
def test_other_errors_are_not_retried(status: int, message: str) -> None:
    client, seen = client_answering(lambda r, n: error(status, message))
    with pytest.raises(ApiError) as raised:
        client.create_campaign("demo", {"title": "x"})
    assert (raised.value.status, raised.value.error, len(seen)) == (status, message, 1)


def test_a_409_saying_the_key_is_in_progress_is_asked_again_until_the_answer() -> None:
    client, seen = client_answering(
        lambda r, n: error(409, "A request with this idempotency key is in progress") if n < 3 else httpx.Response(201, json={"id": "don_1"})
    )
    assert client.create_donation({"campaignId": "cmp_1", "amount": 2500, "email": "a@example.org"}) == {"id": "don_1"}
    assert len({r.headers["idempotency-key"] for r in seen}) == 1
    assert len(seen) == 3


def test_network_errors_of_get_and_post_are_retried_but_not_of_patch() -> None:
    def flaky(request: httpx.Request, n: int) -> httpx.Response:
        if n % 2 == 1:
            raise httpx.ConnectError("connection refused", request=request)
        return httpx.Response(200, json={"n": n})

    client, seen = client_answering(flaky)
    assert client.get_campaign("cmp_1") == {"n": 2}
    assert client.refund_donation("don_1") == {"n": 4}
    assert seen[2].headers["idempotency-key"] == seen[3].headers["idempotency-key"]
    with pytest.raises(ApiConnectionError) as raised:
        client.update_campaign("cmp_1", {"title": "y"})
    assert isinstance(raised.value.__cause__, httpx.ConnectError)
    assert len(seen) == 5


def test_a_patch_is_retried_after_503_but_not_after_502() -> None:
    client, seen = client_answering(lambda r, n: error(503, "Service unavailable") if n == 1 else httpx.Response(200, json={"ok": True}))
    assert client.update_campaign("cmp_1", {"title": "y"}) == {"ok": True}
    client, seen = client_answering(lambda r, n: error(502, "Bad gateway"))
    with pytest.raises(ApiError):
        client.update_campaign("cmp_1", {"title": "y"})
    assert len(seen) == 1


def test_answers_are_decoded_by_content_type_and_paths_escaped() -> None:
    def answer(request: httpx.Request, n: int) -> httpx.Response:
        if request.url.path.endswith("/export"):
            return httpx.Response(200, text="id,amount\r\n", headers={"content-type": "text/csv; charset=utf-8"})
        if request.method == "DELETE":
            return httpx.Response(204)
        return httpx.Response(200, json={"path": request.url.raw_path.decode()})

    client, seen = client_answering(answer)
    assert client.export_donations("demo", status="SUCCEEDED") == "id,amount\r\n"
    assert seen[0].url.params["status"] == "SUCCEEDED"
    assert client.delete_campaign("cmp_1") is None
    assert client.get_campaign("a/b?c") == {"path": "/api/campaigns/a%2Fb%3Fc"}
    assert client.request("GET", "/api/orgs", params={"limit": None}) == {"path": "/api/orgs"}


def test_paginate_follows_cursors_until_null_and_pages_while_has_more() -> None:
    cursor_pages = {None: (["a", "b"], "c1"), "c1": (["c"], "c2"), "c2": ([], None)}
    asked: list[dict[str, Any]] = []

    def by_cursor(**position: Any) -> Any:
        asked.append(position)
        data, following = cursor_pages[position.get("cursor")]
        return {"data": data, "pagination": {"limit": 2, "nextCursor": following}}

    assert list(paginate(by_cursor)) == ["a", "b", "c"]
    assert asked == [{}, {"cursor": "c1"}, {"cursor": "c2"}]

    # A server repeating the cursor it was given ends the walk instead of looping.
    assert list(paginate(lambda **p: {"data": [1], "pagination": {"limit": 1, "nextCursor": "same"}})) == [1, 1]

    def by_page(**position: Any) -> Any:
        page = position.get("page", 1)
        return {"data": [page * 10, page * 10 + 1], "pagination": {"page": page, "limit": 2, "total": 6, "hasMore": page < 3}}

    assert list(paginate(by_page)) == [10, 11, 20, 21, 30, 31]
    # An empty page ends it even if hasMore says otherwise.
    assert list(paginate(lambda **p: {"data": [], "pagination": {"page": 1, "limit": 2, "total": 9, "hasMore": True}})) == []


def test_async_client_retries_with_the_same_key_and_iterates_pages() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.method == "POST" and len(seen) == 1:
            return error(503, "Service unavailable", {"retry-after": "0"})
        if request.method == "POST":
            return httpx.Response(201, json={"id": "cmp_1"})
        page = int(request.url.params.get("page", "1"))
        return httpx.Response(200, json={"data": [{"id": f"c{page}"}], "pagination": {"page": page, "limit": 1, "total": 2, "hasMore": page < 2}})

    async def run() -> tuple[Any, list[Any]]:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
            client = AsyncGoodfund("https://give.example.org", api_key="gf_test_x", http_client=http, retries=FAST)
            created = await client.create_campaign("demo", {"title": "Async"})
            return created, [c["id"] async for c in client.iter_campaigns("demo", limit=1)]

    created, ids = asyncio.run(run())
    assert created == {"id": "cmp_1"}
    assert ids == ["c1", "c2"]
    assert seen[0].headers["idempotency-key"] == seen[1].headers["idempotency-key"]
    assert [r.url.params.get("page") for r in seen[2:]] == [None, "2"]


def test_retry_after_is_read_as_seconds_or_an_http_date_and_backoff_doubles_to_the_cap() -> None:
    now = time.time()
    assert retry_after_seconds("3") == 3.0
    assert retry_after_seconds(" 1.5 ") == 1.5
    in_ten = format_datetime(datetime.fromtimestamp(now, timezone.utc) + timedelta(seconds=10), usegmt=True)
    assert 8 <= retry_after_seconds(in_ten, now=now) <= 10  # type: ignore[operator]
    assert retry_after_seconds(format_datetime(datetime(2000, 1, 1, tzinfo=timezone.utc), usegmt=True)) == 0.0
    for unreadable in (None, "", "soon", "-1", "nan"):
        assert retry_after_seconds(unreadable) is None

    assert [backoff(r, 0.5, 10, rand=lambda: 1.0) for r in (1, 2, 3, 4, 5, 6, 7)] == [0.5, 1, 2, 4, 8, 10, 10]
    assert [backoff(r, 0.5, 10, rand=lambda: 0.0) for r in (1, 2, 6)] == [0.25, 0.5, 5]


def test_a_client_takes_an_api_key_or_a_token_not_both() -> None:
    with pytest.raises(ValueError):
        Goodfund("https://give.example.org", api_key="gf_test_x", token="jwt")
    with pytest.raises(ValueError):
        Goodfund("give.example.org")


SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()


def signed(payload: bytes, timestamp: int | None = None, signature: str | None = None) -> dict[str, str]:
    ts = int(time.time()) if timestamp is None else timestamp
    return {
        "Webhook-Id": "msg_1",
        "Webhook-Timestamp": str(ts),
        "Webhook-Signature": signature if signature is not None else sign_webhook(payload, "msg_1", ts, SECRET),
    }


def test_verify_webhook_checks_signatures_in_constant_time_within_the_tolerance() -> None:
    body = b'{"id":"msg_1","type":"donation.succeeded","createdAt":"2026-01-01T00:00:00.000Z","data":{"id":"don_1"}}'
    assert verify_webhook(body, signed(body), SECRET)["data"] == {"id": "don_1"}
    # The secret's raw base64 works too, and header names are case-insensitive.
    assert verify_webhook(body.decode(), signed(body), SECRET.removeprefix("whsec_"))["id"] == "msg_1"

    good = signed(body)["Webhook-Signature"]
    # Several signatures (a secret being rotated, a future scheme): any v1 match is enough.
    assert verify_webhook(body, signed(body, signature=f"v1,{'A' * 44} v2,whatever {good}"), SECRET)["id"] == "msg_1"
    # A header given as a list of values (some frameworks do).
    headers: dict[str, Any] = {**signed(body), "Webhook-Signature": [f"v1,{'A' * 44}", good]}
    assert verify_webhook(body, headers, SECRET)["id"] == "msg_1"

    for refused, message in [
        (signed(body, signature=f"v1,{'A' * 44}"), "No matching signature"),
        (signed(body, signature=good.replace("v1,", "v2,")), "No matching signature"),
        (signed(body, timestamp=int(time.time()) - 301), "too old"),
        (signed(body, timestamp=int(time.time()) + 301), "too new"),
        ({k: v for k, v in signed(body).items() if k != "Webhook-Id"}, "Missing required headers"),
        ({**signed(body), "Webhook-Timestamp": "yesterday"}, "Invalid webhook-timestamp"),
    ]:
        with pytest.raises(WebhookVerificationError, match=message):
            verify_webhook(body, refused, SECRET)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body + b" ", signed(body), SECRET)
    # A wider tolerance accepts an older delivery.
    old = int(time.time()) - 600
    assert verify_webhook(body, signed(body, timestamp=old), SECRET, tolerance=900)["id"] == "msg_1"
    with pytest.raises(ValueError):
        verify_webhook(body, signed(body), "whsec_not base64!")
