"""schemathesis hooks for scripts/test-contract: let generated card requests reach real records, and
webhook and decision endpoint URLs pass the URL policy (see WEBHOOK_URL).

A card names two records, an account and a card holder, but an OpenAPI link carries values from one
response only, and a random account can rarely fund a card (its currency is random). So a POST
/cards whose body names an account or holder that this run did not create (a random, schema-valid
id) gets a fixture instead: a USD account with a large balance and a card holder, made once through
the API. Ids of a schema-invalid shape and invalid currencies are left alone, so negative cases stay
negative; linked ids stay too. With it the stateful phase walks holder -> card -> fund, token ->
reveal, cancel.
"""

import os
import re
import sys

import requests
import schemathesis

# Hypothesis describes its strategies by parsing their source; on a deep schema that parse can hit
# CPython's default recursion limit (1000), which CPython 3.11 reports as "SystemError: AST
# constructor recursion depth mismatch" in the middle of generating a case (seen on POST /cards).
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

BASE = os.environ["CARDS_CONTRACT_BASE"]
HEADERS = {"Authorization": f"Bearer {os.environ['CARDS_CONTRACT_KEY']}"}
created = {"debitAccountId": set(), "cardHolderId": set()}
SOURCES = {"/accounts": "debitAccountId", "/card-holders": "cardHolderId"}
fixtures = {}


def _fixture(field):
    if not fixtures:
        account = requests.post(f"{BASE}/accounts", headers=HEADERS, timeout=10, json={
            "ownerType": "business", "name": "contract fixture", "type": "checking",
            "category": "fiat", "currency": "USD", "balance": 100000000000,
        })
        holder = requests.post(f"{BASE}/card-holders", headers=HEADERS, timeout=10, json={
            "person": {"firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.com",
                       "phoneNumber": "+2348012345678"},
        })
        fixtures["debitAccountId"] = account.json()["data"]["_id"]
        fixtures["cardHolderId"] = holder.json()["data"]["_id"]
    return fixtures[field]


def _valid_id_shape(value):
    return isinstance(value, str) and value.strip() != "" and len(value) <= 64


# Webhook and decision endpoint URLs: which hosts a URL may name is the operator's URL policy (configuration, not
# the schema), so a schema-valid string URL is replaced by one the default policy allows; other types
# stay, so negative cases stay negative.
WEBHOOK_URL = "http://127.0.0.1:9/contract"

# What the schema's `[^\s\u0085]` calls blank: JSON Schema's (ECMA-262's) \s, and U+0085. Python's
# str.strip() also strips U+001C..U+001F, so a URL of those would pass as schema-valid yet stay unreplaced.
SCHEMA_BLANK = re.compile("^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0085]*$")


@schemathesis.hook
def before_call(context, case, **kwargs):
    if case.operation.path in ("/webhook-endpoints", "/webhook-endpoints/{id}", "/authorization-endpoint") \
            and isinstance(case.body, dict):
        url = case.body.get("url")
        if isinstance(url, str) and not SCHEMA_BLANK.match(url) and len(url) <= 2048:
            case.body["url"] = WEBHOOK_URL
        return
    if case.operation.method.upper() != "POST" or case.operation.path != "/cards":
        return
    body = case.body
    if not isinstance(body, dict):
        return
    for field, ids in created.items():
        value = body.get(field)
        if _valid_id_shape(value) and value not in ids:
            body[field] = _fixture(field)
            if field == "debitAccountId" and body.get("currency", "USD") in ("USD", "NGN"):
                body["currency"] = "USD"


@schemathesis.hook
def after_call(context, case, response):
    field = SOURCES.get(case.operation.path)
    if field and case.operation.method.upper() == "POST" and response.status_code == 201:
        try:
            created[field].add(response.json()["data"]["_id"])
        except (ValueError, KeyError, TypeError):
            pass
