from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.card_holder_create import CardHolderCreate
from ...models.card_holder_create_multipart import CardHolderCreateMultipart
from ...models.create_card_holder_response_201 import CreateCardHolderResponse201
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CardHolderCreate | CardHolderCreateMultipart | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/card-holders",
    }

    if isinstance(body, CardHolderCreate):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, CardHolderCreateMultipart):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateCardHolderResponse201 | Error | None:
    if response.status_code == 201:
        response_201 = CreateCardHolderResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[CreateCardHolderResponse201 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CardHolderCreate | CardHolderCreateMultipart | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateCardHolderResponse201 | Error]:
    """Create a card holder, with identity documents as multipart files

    Args:
        idempotency_key (str | Unset):
        body (CardHolderCreate): Without `name`, the name is `<firstName> <lastName>`. The
            quickstart's flat fields (`firstName`, `addressLine1`, `country`, ...) are accepted too.
        body (CardHolderCreateMultipart): Flat parts, or JSON-text parts `person`, `address`,
            `identification` and `meta` holding the objects of the JSON form (a JSON part's field wins
            over the flat one); snake_case part names are accepted too. Files `documentMain`,
            `documentBack` and `proofOfAddress` are stored and served at `GET /card-
            holders/{id}/files/{fileId}`; a file without its identification object creates it (status
            `pending`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateCardHolderResponse201 | Error]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CardHolderCreate | CardHolderCreateMultipart | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CreateCardHolderResponse201 | Error | None:
    """Create a card holder, with identity documents as multipart files

    Args:
        idempotency_key (str | Unset):
        body (CardHolderCreate): Without `name`, the name is `<firstName> <lastName>`. The
            quickstart's flat fields (`firstName`, `addressLine1`, `country`, ...) are accepted too.
        body (CardHolderCreateMultipart): Flat parts, or JSON-text parts `person`, `address`,
            `identification` and `meta` holding the objects of the JSON form (a JSON part's field wins
            over the flat one); snake_case part names are accepted too. Files `documentMain`,
            `documentBack` and `proofOfAddress` are stored and served at `GET /card-
            holders/{id}/files/{fileId}`; a file without its identification object creates it (status
            `pending`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateCardHolderResponse201 | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CardHolderCreate | CardHolderCreateMultipart | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateCardHolderResponse201 | Error]:
    """Create a card holder, with identity documents as multipart files

    Args:
        idempotency_key (str | Unset):
        body (CardHolderCreate): Without `name`, the name is `<firstName> <lastName>`. The
            quickstart's flat fields (`firstName`, `addressLine1`, `country`, ...) are accepted too.
        body (CardHolderCreateMultipart): Flat parts, or JSON-text parts `person`, `address`,
            `identification` and `meta` holding the objects of the JSON form (a JSON part's field wins
            over the flat one); snake_case part names are accepted too. Files `documentMain`,
            `documentBack` and `proofOfAddress` are stored and served at `GET /card-
            holders/{id}/files/{fileId}`; a file without its identification object creates it (status
            `pending`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateCardHolderResponse201 | Error]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CardHolderCreate | CardHolderCreateMultipart | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CreateCardHolderResponse201 | Error | None:
    """Create a card holder, with identity documents as multipart files

    Args:
        idempotency_key (str | Unset):
        body (CardHolderCreate): Without `name`, the name is `<firstName> <lastName>`. The
            quickstart's flat fields (`firstName`, `addressLine1`, `country`, ...) are accepted too.
        body (CardHolderCreateMultipart): Flat parts, or JSON-text parts `person`, `address`,
            `identification` and `meta` holding the objects of the JSON form (a JSON part's field wins
            over the flat one); snake_case part names are accepted too. Files `documentMain`,
            `documentBack` and `proofOfAddress` are stored and served at `GET /card-
            holders/{id}/files/{fileId}`; a file without its identification object creates it (status
            `pending`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateCardHolderResponse201 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
