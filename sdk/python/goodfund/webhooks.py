"""Checking deliveries of Goodfund's outbound webhooks (Standard Webhooks)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Iterable, Mapping, TypedDict, Union

from ._errors import WebhookVerificationError

#: How far a delivery's ``webhook-timestamp`` may be from now, in seconds (the standard's five minutes).
DEFAULT_TOLERANCE = 300.0

SECRET_PREFIX = "whsec_"

Headers = Union[Mapping[str, str], Mapping[str, Iterable[str]], Any]
"""Request headers as a framework gives them: a dict, ``httpx.Headers``, Django's
``request.headers``, Flask/Werkzeug's ``Headers``... anything with ``items()``."""


class WebhookEvent(TypedDict):
    """The body of a delivery: the event, ``data`` being the resource as the API serializes it."""

    id: str
    type: str
    createdAt: str
    data: Any


def _header_map(headers: Headers) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in headers.items():
        if value is None:
            continue
        out[str(name).lower()] = value if isinstance(value, str) else " ".join(str(v) for v in value)
    return out


def _secret_key(secret: str) -> bytes:
    raw = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as err:
        raise ValueError("The webhook secret must be the endpoint's signing secret, whsec_ followed by base64.") from err


def sign_webhook(payload: str | bytes, msg_id: str, timestamp: int, secret: str) -> str:
    """The ``webhook-signature`` value (``v1,`` + base64 HMAC-SHA256 of ``id.timestamp.body``) Goodfund sends."""
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    signed = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(_secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def verify_webhook(
    payload: str | bytes,
    headers: Headers,
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
) -> WebhookEvent:
    """Checks a delivery of Goodfund's outbound webhooks and returns its event.

    Deliveries are signed the Standard Webhooks way: ``webhook-id`` (the event ID, the same on
    every retry, so use it to skip repeats), ``webhook-timestamp`` (Unix seconds; more than
    ``tolerance`` seconds off is refused, against replays) and ``webhook-signature`` (``v1,`` +
    base64 HMAC-SHA256 of ``id.timestamp.body``; several space-separated signatures while a
    secret is being rotated, any one matching is enough), with the endpoint's signing secret
    (``whsec_...``, shown when the endpoint is created or its secret rotated).

    ``payload`` must be the raw body as received (``request.body`` in Django,
    ``request.get_data()`` in Flask), not JSON parsed and dumped again. Signatures are compared in
    constant time. Raises ``WebhookVerificationError`` when a header is missing, the timestamp is
    too old or too new, or no signature matches.
    """
    found = _header_map(headers)
    msg_id = found.get("webhook-id")
    timestamp = found.get("webhook-timestamp")
    signatures = found.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing required headers (webhook-id, webhook-timestamp, webhook-signature)")
    try:
        sent_at = int(timestamp)
    except ValueError:
        raise WebhookVerificationError("Invalid webhook-timestamp") from None
    now = time.time()
    if sent_at < now - tolerance:
        raise WebhookVerificationError("Message timestamp too old")
    if sent_at > now + tolerance:
        raise WebhookVerificationError("Message timestamp too new")

    expected = sign_webhook(payload, msg_id, sent_at, secret).split(",", 1)[1]
    matched = False
    for candidate in signatures.split(" "):
        version, _, signature = candidate.partition(",")
        # Every candidate is compared (no early exit), each in constant time.
        if version == "v1" and hmac.compare_digest(signature.encode(), expected.encode()):
            matched = True
    if not matched:
        raise WebhookVerificationError("No matching signature found")
    event: WebhookEvent = json.loads(payload)
    return event
