"""The SDK against the real server (`npm start`'s production build, embedded database, sandbox
payments) over HTTP: the calls an integration makes, idempotent retries, pagination, errors
and webhook signatures."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from goodfund import (
    ApiError,
    AsyncGoodfund,
    Goodfund,
    RetryOptions,
    WebhookVerificationError,
    paginate,
    verify_webhook,
)
from goodfund.webhooks import sign_webhook

from conftest import Org, Receiver, Server, settle, unique_email


def active_campaign(org: Org, title: str) -> str:
    return org.owner.create_campaign(org.slug, {"title": title, "status": "ACTIVE"})["id"]


def test_an_owner_creates_an_organization_and_a_campaign(server: Server, org: Org) -> None:
    mine = org.owner.list_organizations()
    assert org.slug in [m["slug"] for m in mine["data"]]
    organization = org.owner.get_organization(org.slug)
    assert organization["status"] == "ACTIVE"
    assert organization["chargesEnabled"] is True

    campaign = org.owner.create_campaign(
        org.slug, {"title": "Clean water", "goalAmountCents": 500_000, "suggestedAmounts": [2500, 5000]}
    )
    assert campaign["status"] == "DRAFT"
    assert campaign["slug"] == "clean-water"
    assert campaign["raisedAmountCents"] == 0
    published = org.owner.update_campaign(campaign["id"], {"status": "ACTIVE"})
    assert published["status"] == "ACTIVE"
    assert org.owner.get_campaign(campaign["id"]) == published
    listed = org.owner.list_campaigns(org.slug, status="ACTIVE")
    assert campaign["id"] in [c["id"] for c in listed["data"]]


def test_a_donation_is_settled_by_a_signed_processor_event(server: Server, org: Org) -> None:
    campaign_id = active_campaign(org, "Settled gifts")
    donor = Goodfund(server.url)
    email = unique_email("settled")
    donation = donor.create_donation({"campaignId": campaign_id, "amount": 2500, "email": email, "firstName": "Ada"})
    assert donation["status"] == "PENDING"
    assert donation["clientSecret"]
    assert donation["paymentIntentId"]

    answer = settle(server, dict(donation))
    assert answer.status_code == 200, answer.text

    detail = org.owner.get_donation(donation["id"])
    assert detail["status"] == "SUCCEEDED"
    assert detail["succeededAt"] is not None
    assert "payment_intent.succeeded" in [entry.get("type") for entry in detail["timeline"]]
    campaign = org.owner.get_campaign(campaign_id)
    assert (campaign["raisedAmountCents"], campaign["donationCount"]) == (2500, 1)
    donors = org.owner.list_donors(org.slug, q=email)["data"]
    assert [(d["email"], d["totalGivenCents"], d["donationCount"]) for d in donors] == [(email, 2500, 1)]


def test_iterators_visit_every_row_once_cursor_and_page_paged_sync_and_async(server: Server, org: Org) -> None:
    campaign_id = active_campaign(org, "Paged gifts")
    donor = Goodfund(server.url)
    gifts = [
        donor.create_donation({"campaignId": campaign_id, "amount": 1000 + i, "email": unique_email(f"paged{i}")})["id"]
        for i in range(12)
    ]

    # Cursor-paged: 12 donations, 5 a page.
    positions: list[dict[str, Any]] = []

    def fetch_page(**position: Any) -> Any:
        positions.append(position)
        return org.owner.list_donations(org.slug, campaign_id=campaign_id, limit=5, **position)

    visited = [d["id"] for d in paginate(fetch_page)]
    assert len(positions) == 3
    assert positions[0] == {}
    assert all("cursor" in p for p in positions[1:])
    assert sorted(visited) == sorted(gifts)
    assert [d["id"] for d in org.owner.iter_donations(org.slug, campaign_id=campaign_id, limit=5)] == visited

    # Page-paged: the organization's campaigns, 2 a page, in the order of the unpaged list.
    every = [c["id"] for c in org.owner.list_campaigns(org.slug)["data"]]
    assert len(every) >= 3
    assert [c["id"] for c in org.owner.iter_campaigns(org.slug, limit=2)] == every

    async def walk() -> tuple[list[str], list[str]]:
        async with AsyncGoodfund(server.url, token=org.owner_token) as client:
            donations = [d["id"] async for d in client.iter_donations(org.slug, campaign_id=campaign_id, limit=5)]
            campaigns = [c["id"] async for c in client.iter_campaigns(org.slug, limit=2)]
            return donations, campaigns

    assert asyncio.run(walk()) == (visited, every)


class DropFirstAnswer(httpx.BaseTransport):
    """Sends every request to the server, but loses the answer to the first POST on the way back
    (the server did the work; the client sees a reset connection)."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.posts: list[tuple[str | None, int, str | None]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method != "POST":
            return response
        response.read()
        self.posts.append((request.headers.get("idempotency-key"), response.status_code, response.headers.get("idempotent-replayed")))
        if len(self.posts) == 1:
            response.close()
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


class AsyncDropFirstAnswer(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.posts: list[tuple[str | None, int, str | None]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "POST":
            return response
        await response.aread()
        self.posts.append((request.headers.get("idempotency-key"), response.status_code, response.headers.get("idempotent-replayed")))
        if len(self.posts) == 1:
            await response.aclose()
            raise httpx.ReadError("connection reset by peer", request=request)
        return response


FAST_RETRIES = RetryOptions(base_delay=0.01, max_delay=0.05)


def test_a_post_whose_answer_was_lost_is_retried_with_the_same_key_and_made_once(server: Server, org: Org) -> None:
    campaign_id = active_campaign(org, "Lost answers")
    email = unique_email("dropped")
    transport = DropFirstAnswer()
    with Goodfund(server.url, http_client=httpx.Client(transport=transport), retries=FAST_RETRIES) as donor:
        donation = donor.create_donation({"campaignId": campaign_id, "amount": 2500, "email": email})
    assert donation["status"] == "PENDING"
    (first_key, first_status, first_replayed), (second_key, second_status, second_replayed) = transport.posts
    assert first_key and len(first_key) == 36
    assert second_key == first_key
    assert (first_status, first_replayed) == (201, None)
    assert (second_status, second_replayed) == (201, "true")
    assert [d["id"] for d in org.owner.list_donations(org.slug, q=email)["data"]] == [donation["id"]]


def test_async_a_post_whose_answer_was_lost_is_made_once(server: Server, org: Org) -> None:
    campaign_id = active_campaign(org, "Lost answers, async")
    email = unique_email("dropped-async")
    transport = AsyncDropFirstAnswer()

    async def donate() -> Any:
        async with httpx.AsyncClient(transport=transport) as http:
            donor = AsyncGoodfund(server.url, http_client=http, retries=FAST_RETRIES)
            return await donor.create_donation({"campaignId": campaign_id, "amount": 3000, "email": email})

    donation = asyncio.run(donate())
    assert [key for key, _, _ in transport.posts] == [transport.posts[0][0]] * 2
    assert transport.posts[1][2] == "true"
    assert [d["id"] for d in org.owner.list_donations(org.slug, q=email)["data"]] == [donation["id"]]


def test_error_answers_raise_api_error_with_status_error_and_details(server: Server, org: Org) -> None:
    campaign_id = active_campaign(org, "Errors")
    donor = Goodfund(server.url)
    with pytest.raises(ApiError) as raised:
        donor.create_donation({"campaignId": campaign_id, "amount": 50, "email": "not-an-email"})
    err = raised.value
    assert err.status == 400
    assert err.error == "Validation failed"
    assert err.details["fieldErrors"]["amount"] == ["Number must be greater than or equal to 100"]
    assert "email" in err.field_errors
    assert err.request_id
    assert str(err) == "Validation failed (HTTP 400)"

    with pytest.raises(ApiError) as missing:
        org.owner.get_campaign("cmp_does_not_exist")
    assert (missing.value.status, missing.value.error, missing.value.details) == (404, "Campaign not found", None)

    with pytest.raises(ApiError) as unauthorized:
        Goodfund(server.url, token="not-a-token").list_organizations()
    assert (unauthorized.value.status, unauthorized.value.error) == (401, "Unauthorized")


def test_verify_webhook_accepts_a_real_delivery_and_refuses_a_tampered_one(server: Server, org: Org, receiver: Receiver) -> None:
    endpoint = org.owner.create_webhook_endpoint(org.slug, {"url": receiver.url, "eventTypes": ["donation.succeeded"]})
    secret = endpoint["secret"]
    assert secret.startswith("whsec_")
    campaign_id = active_campaign(org, "Webhooks")
    donation = Goodfund(server.url).create_donation({"campaignId": campaign_id, "amount": 4200, "email": unique_email("hook")})
    assert settle(server, dict(donation)).status_code == 200

    # The server's worker delivers the event (it runs every few seconds).
    deliveries = receiver.wait_for(1)
    assert len(deliveries) == 1
    body, headers = deliveries[0].body, deliveries[0].headers

    event = verify_webhook(body, headers, secret)
    assert event["type"] == "donation.succeeded"
    assert event["id"] == headers["webhook-id"]
    assert event["data"]["id"] == donation["id"]
    assert event["data"]["amount"] == 4200
    # The same delivery as text and as httpx's headers (what another framework hands over).
    assert verify_webhook(body.decode(), httpx.Headers(headers), secret)["id"] == event["id"]

    tampered = body.replace(b'"amount":4200', b'"amount":4300')
    assert tampered != body
    with pytest.raises(WebhookVerificationError):
        verify_webhook(tampered, headers, secret)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, headers, "whsec_" + "B" * 43 + "=")
    unsigned = {k: v for k, v in headers.items() if k != "webhook-signature"}
    with pytest.raises(WebhookVerificationError):
        verify_webhook(body, unsigned, secret)
    # Signed correctly but an hour old: refused as a possible replay.
    old = int(headers["webhook-timestamp"]) - 3600
    replayed = {**headers, "webhook-timestamp": str(old), "webhook-signature": sign_webhook(body, headers["webhook-id"], old, secret)}
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify_webhook(body, replayed, secret)

    # The attempt is logged once the receiver has answered.
    deadline = time.monotonic() + 15
    logged: list[Any] = []
    while not logged and time.monotonic() < deadline:
        logged = org.owner.list_webhook_deliveries(org.slug, endpoint["id"])["data"]
        time.sleep(0.2)
    assert [(d["eventId"], d["eventType"], d["success"], d["statusCode"]) for d in logged] == [
        (event["id"], "donation.succeeded", True, 204)
    ]
