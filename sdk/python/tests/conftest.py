"""The real server for the SDK's tests: `npm start`'s command (node --import tsx server/start.ts) on a free port,
embedded database in a fresh directory, sandbox payments, outbound webhooks allowed to
loopback; started once for the run (building the app first if its build is stale) and
stopped after it."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from goodfund import Goodfund

ROOT = Path(__file__).resolve().parents[3]
PROCESSOR_WEBHOOK_SECRET = "whsec_python_sdk_tests_0123456789"

# The app's own settings: the server under test gets none of the caller's (a developer's
# DATABASE_URL must not point the tests at their database).
APP_VARIABLES = {
    "DATABASE_URL",
    "PGLITE_DIR",
    "TEST_DATABASE_URL",
    "NEXTAUTH_SECRET",
    "NEXTAUTH_URL",
    "APP_URL",
    "REDIS_URL",
    "UPSTASH_REDIS_REST_URL",
    "UPSTASH_REDIS_REST_TOKEN",
    "RATE_LIMIT_BACKEND",
    "RATE_LIMIT_PUBLIC_PER_MINUTE",
    "RATE_LIMIT_AUTHENTICATED_PER_MINUTE",
    "TRUST_PROXY",
    "STRIPE_SECRET_KEY",
    "STRIPE_PUBLISHABLE_KEY",
    "STRIPE_API_HOST",
    "PAYMENTS_MODE",
    "SECRETS_ENCRYPTION_KEY",
    "WORKER_DISABLED",
    "SEED_DEMO",
    "DEMO_HISTORY_SCALE",
    "RESEND_API_KEY",
    "TURNSTILE_SITE_KEY",
    "TURNSTILE_SECRET_KEY",
    "WEB_CONCURRENCY",
    "CRON_SECRET",
    "NODE_ENV",
    "PORT",
    "HOSTNAME",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    env: dict[str, str]

    def token(self, email: str) -> str:
        """`npm run token -- --email ...` as a user runs it: a session token of the person with this email."""
        out = subprocess.run(
            ["node", str(ROOT / "node_modules/tsx/dist/cli.mjs"), "scripts/token.ts", "--email", email],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=True,
        )
        return out.stdout.strip()


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    if shutil.which("node") is None:
        pytest.fail("Node.js is needed to run the Goodfund server these tests talk to")
    data_dir = tempfile.mkdtemp(prefix="goodfund-pysdk-")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in APP_VARIABLES and not k.startswith("VITEST")}
    env.update(
        GOODFUND_DATA_DIR=data_dir,
        PORT=str(port),
        HOSTNAME="127.0.0.1",
        LOG_LEVEL="warn",
        ALLOW_PRIVATE_WEBHOOK_URLS="1",
        PROCESSOR_WEBHOOK_SECRET=PROCESSOR_WEBHOOK_SECRET,
        # The demo organization and its campaigns, with only a sliver of its year of gifts to play.
        DEMO_HISTORY_SCALE="0.01",
    )
    log = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(["node", "--import", "tsx", "server/start.ts"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        # The first start may build the app (a few minutes).
        deadline = time.monotonic() + 900
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"The server exited ({proc.returncode}):\n{log.read()}")
            try:
                if httpx.get(f"{url}/api/openapi.json", timeout=5).status_code < 500:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"The server did not start:\n{log.read()}")
            time.sleep(0.25)
        yield Server(url=url, env=env)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(data_dir, ignore_errors=True)


@dataclass
class Org:
    """An organization made through the SDK by its owner, taking donations (payouts set up)."""

    slug: str
    owner: Goodfund
    owner_token: str


@pytest.fixture(scope="session")
def org(server: Server) -> Iterator[Org]:
    token = server.token("python-sdk-owner@example.org")
    owner = Goodfund(server.url, token=token)
    created = owner.create_organization({"name": "Python SDK Fund"})
    onboarding = owner.start_processor_onboarding(created["slug"])
    # The sandbox's stand-in for Stripe's onboarding: payouts on, so the organization takes donations.
    owner.complete_sandbox_onboarding(onboarding["processorAccountId"])
    yield Org(slug=created["slug"], owner=owner, owner_token=token)
    owner.close()


def unique_email(label: str) -> str:
    return f"{label}-{secrets.token_hex(4)}@example.org"


def settle(server: Server, donation: dict[str, Any]) -> httpx.Response:
    """The processor reports the donation's payment succeeded: a `payment_intent.succeeded` event
    signed with the server's PROCESSOR_WEBHOOK_SECRET the way Stripe signs (`Stripe-Signature:
    t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`), POSTed to the processor webhook."""
    now = int(time.time())
    event = {
        "id": f"evt_{secrets.token_hex(12)}",
        "object": "event",
        "api_version": "2026-10-28.endive",
        "created": now,
        "livemode": False,
        "pending_webhooks": 1,
        "request": {"id": None, "idempotency_key": None},
        "type": "payment_intent.succeeded",
        "data": {
            "object": {
                "id": donation["paymentIntentId"],
                "object": "payment_intent",
                "amount": donation["amount"],
                "amount_received": donation["amount"],
                "currency": donation["currency"],
                "metadata": {"donationId": donation["id"]},
                "latest_charge": f"ch_{secrets.token_hex(12)}",
                "status": "succeeded",
            }
        },
    }
    payload = json.dumps(event)
    digest = hmac.new(PROCESSOR_WEBHOOK_SECRET.encode(), f"{now}.{payload}".encode(), hashlib.sha256).hexdigest()
    return httpx.post(
        f"{server.url}/api/processor/webhooks",
        content=payload,
        headers={"content-type": "application/json", "stripe-signature": f"t={now},v1={digest}"},
    )


@dataclass
class Delivery:
    body: bytes
    headers: dict[str, str]


@dataclass
class Receiver:
    """A local HTTP endpoint that records what is POSTed to it (the webhook endpoint of the tests)."""

    url: str
    deliveries: list[Delivery] = field(default_factory=list)

    def wait_for(self, count: int, timeout: float = 60) -> list[Delivery]:
        deadline = time.monotonic() + timeout
        while len(self.deliveries) < count and time.monotonic() < deadline:
            time.sleep(0.2)
        return list(self.deliveries)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    recorded: list[Delivery] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            recorded.append(Delivery(body=body, headers={k.lower(): v for k, v in self.headers.items()}))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield Receiver(url=f"http://127.0.0.1:{httpd.server_address[1]}/goodfund", deliveries=recorded)
    finally:
        httpd.shutdown()
        httpd.server_close()
