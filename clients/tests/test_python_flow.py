"""The README's flow through the generated Python client (clients/python, openapi-python-client)
against a real `cards` server (CARDS_BIN): an account, a card holder, a funded card, a top-up, a
purchase, a reveal token and the reveal, and a list paged with a cursor. Run by scripts/test-clients
with PYTHONPATH=clients/python."""

import io
import json
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from cards_client import AuthenticatedClient
from cards_client.api.accounts import (
    create_account,
    get_account,
    list_account_transactions,
)
from cards_client.api.card_holders import create_card_holder
from cards_client.api.card_spend import create_authorization
from cards_client.api.cards import (
    create_card,
    create_card_token,
    fund_card,
    list_cards,
    reveal_card,
)
from cards_client.models import (
    AccountCreate,
    AccountCreateCategory,
    AccountCreateOwnerType,
    AccountCreateType,
    AuthorizationCreate,
    AuthorizationCreateChannel,
    AuthorizationCreateMerchant,
    CardCreate,
    CardCreateBrand,
    CardCreateStatus,
    CardCreateType,
    CardFunding,
    CardHolderCreate,
    CardHolderCreateMultipart,
    CardHolderCreateMultipartCountryType0,
    CardSecrets,
    Error,
    ListAccountTransactionsSort,
    PersonInput,
)
from cards_client.types import File

KEY = "python-flow-key-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def client():
    binary = os.environ.get("CARDS_BIN")
    assert binary and Path(binary).exists(), "CARDS_BIN must name the built cards binary"
    with tempfile.TemporaryDirectory(prefix="cards-pyclient-") as data:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{port}", "--data", f"{data}/cards.redb",
             "--api-key", f"{KEY}=flow"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 15
            while True:
                assert server.poll() is None, f"cards exited: {server.stderr.read().decode()}"
                try:
                    if httpx.get(f"{base}/health").status_code == 200:
                        break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, f"cards did not come up at {base}"
                    time.sleep(0.1)
            # The key as `Authorization: Bearer`, one of the document's two security schemes.
            with AuthenticatedClient(base_url=base, token=KEY, raise_on_unexpected_status=True) as c:
                yield c
        finally:
            server.terminate()
            server.wait(10)


def ok(response, status=200):
    """The parsed body of a response that must have succeeded with `status`."""
    assert response.status_code == status, f"{response.status_code}: {response.content!r}"
    assert not isinstance(response.parsed, Error), response.parsed
    return response.parsed


def luhn_ok(pan: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(pan)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


def new_account(client, name="Operating", balance=500.0):
    return ok(create_account.sync_detailed(client=client, body=AccountCreate(
        owner_type=AccountCreateOwnerType.BUSINESS, name=name, type_=AccountCreateType.CHECKING,
        category=AccountCreateCategory.FIAT, currency="USD", balance=balance,
    )), 201).data


def new_holder(client):
    return ok(create_card_holder.sync_detailed(client=client, body=CardHolderCreate(
        name="Ada Lovelace",
        person=PersonInput(first_name="Ada", last_name="Lovelace", email="ada@example.com",
                           phone_number="+2348012345678", date_of_birth="1990-12-10"),
    )), 201).data


def card_body(account_id, holder_id, amount=None, brand=CardCreateBrand.VISA):
    body = CardCreate(debit_account_id=account_id, card_holder_id=holder_id, type_=CardCreateType.VIRTUAL,
                      brand=brand, status=CardCreateStatus.ACTIVE)
    if amount is not None:
        body.amount = amount
    return body


def test_readme_flow(client):
    account = new_account(client)
    assert account.balance == 500

    holder = new_holder(client)
    assert holder.person.email == "ada@example.com"

    issued = create_card.sync_detailed(client=client, body=card_body(account.field_id, holder.field_id, 100),
                                       idempotency_key="py-issue-1")
    card = ok(issued, 201).data
    assert card.balance == 100
    replay = create_card.sync_detailed(client=client, body=card_body(account.field_id, holder.field_id, 100),
                                       idempotency_key="py-issue-1")
    assert replay.headers["idempotent-replayed"] == "true"
    assert ok(replay, 201).data.field_id == card.field_id

    funded = ok(fund_card.sync_detailed(card.field_id, client=client,
                                        body=CardFunding(debit_account_id=account.field_id, amount=25.5))).data
    assert funded.balance == 125.5
    assert ok(get_account.sync_detailed(account.field_id, client=client)).data.balance == 374.5

    auth = ok(create_authorization.sync_detailed(card.field_id, client=client, body=AuthorizationCreate(
        amount=12.25, channel=AuthorizationCreateChannel.WEB, merchant=AuthorizationCreateMerchant(name="Corner Shop", category="grocery_stores"),
    )), 201).data
    assert auth.approved is True
    assert auth.status == "pending"

    token = ok(create_card_token.sync_detailed(card.field_id, client=client), 201).data
    assert token.token
    secrets = ok(reveal_card.sync_detailed(card.field_id, client=client, token=token.token))
    assert isinstance(secrets, CardSecrets)
    assert len(secrets.pan) == 16 and luhn_ok(secrets.pan)
    assert secrets.pan[-4:] == card.last4
    # Single use: the same token again is refused with the API's error body.
    again = reveal_card.sync_detailed(card.field_id, client=client, token=token.token)
    assert again.status_code == 403
    assert isinstance(again.parsed, Error) and again.parsed.error == "invalid_token"

    ledger = ok(list_account_transactions.sync_detailed(account.field_id, client=client, sort=ListAccountTransactionsSort.CREATEDAT))
    assert [(e.type_, e.amount) for e in ledger.data] == [
        ("adjustment", 500), ("card_issue_funding", -100), ("card_funding", -25.5)]


def test_multipart_holder(client):
    """The multipart form with flat parts and a document, as a file upload."""
    jpeg = b"\xff\xd8\xff\xe0" + b"\x00" * 64 + b"\xff\xd9"
    body = CardHolderCreateMultipart(
        first_name="Grace", last_name="Hopper", email="grace@example.com", phone_number="+15551234567",
        country=CardHolderCreateMultipartCountryType0.US,
        document_main=File(payload=io.BytesIO(jpeg), file_name="passport.jpg", mime_type="image/jpeg"),
    )
    holder = ok(create_card_holder.sync_detailed(client=client, body=body), 201).data
    assert holder.name == "Grace Hopper"
    assert holder.identification.document.meta.content_hash.startswith("sha256:")


def test_list_with_cursor(client):
    account = new_account(client, "Paging", 1000)
    holder = new_holder(client)
    made = [ok(create_card.sync_detailed(client=client, body=card_body(
        account.field_id, holder.field_id, brand=CardCreateBrand.MASTERCARD if i % 2 else CardCreateBrand.VISA)), 201).data.field_id
        for i in range(5)]

    seen, cursor, calls = [], None, 0
    while True:
        kwargs = {"starting_after": cursor} if cursor else {}
        page = ok(list_cards.sync_detailed(client=client, limit=2,
                                           filter_=json.dumps({"cardHolderId": holder.field_id}), **kwargs))
        calls += 1
        seen += [c.field_id for c in page.data]
        if not page.meta.has_more:
            break
        cursor = page.data[-1].field_id
    assert seen == list(reversed(made)), "every card once, newest first"
    assert calls == 3

    bad = list_cards.sync_detailed(client=client, limit=500)
    assert bad.status_code == 400
    assert any(e.field == "limit" for e in bad.parsed.errors)
