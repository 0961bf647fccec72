"""schemathesis hooks for scripts/test-contract: let generated card requests reach real records.

A card names two records, an account and a card holder, but an OpenAPI link carries values from one
response only. So this remembers the accounts and card holders the run created, and a POST /cards
whose body names an account or holder that does not exist (a random, schema-valid id) gets the
latest one created instead. Ids of a schema-invalid shape are left alone, so negative cases stay
negative. With it the stateful phase walks account -> holder -> card -> fund -> token -> reveal.
"""

import schemathesis

created = {"debitAccountId": [], "cardHolderId": []}
SOURCES = {"/accounts": "debitAccountId", "/card-holders": "cardHolderId"}


def _valid_id_shape(value):
    return isinstance(value, str) and value.strip() != "" and len(value) <= 64


@schemathesis.hook
def before_call(context, case, **kwargs):
    if case.operation.method.upper() != "POST" or case.operation.path != "/cards":
        return
    body = case.body
    if not isinstance(body, dict):
        return
    for field, ids in created.items():
        if ids and _valid_id_shape(body.get(field)) and body[field] not in ids:
            body[field] = ids[-1]


@schemathesis.hook
def after_call(context, case, response):
    field = SOURCES.get(case.operation.path)
    if field and case.operation.method.upper() == "POST" and response.status_code == 201:
        try:
            created[field].append(response.json()["data"]["_id"])
        except (ValueError, KeyError, TypeError):
            pass
