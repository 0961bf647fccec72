from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.card_update_type_0 import CardUpdateType0
from ...models.card_update_type_1 import CardUpdateType1
from ...models.error import Error
from ...models.update_card_response_200 import UpdateCardResponse200
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: CardUpdateType0 | CardUpdateType1,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/cards/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, CardUpdateType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | UpdateCardResponse200 | None:
    if response.status_code == 200:
        response_200 = UpdateCardResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

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
) -> Response[Error | UpdateCardResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CardUpdateType0 | CardUpdateType1,
) -> Response[Error | UpdateCardResponse200]:
    """Change a card's status, controls or metadata; cancel it

    Args:
        id (str):
        body (CardUpdateType0 | CardUpdateType1): `cancellationReason` is required with, and
            `creditAccountId` only accepted with, `status: canceled`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UpdateCardResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CardUpdateType0 | CardUpdateType1,
) -> Error | UpdateCardResponse200 | None:
    """Change a card's status, controls or metadata; cancel it

    Args:
        id (str):
        body (CardUpdateType0 | CardUpdateType1): `cancellationReason` is required with, and
            `creditAccountId` only accepted with, `status: canceled`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UpdateCardResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CardUpdateType0 | CardUpdateType1,
) -> Response[Error | UpdateCardResponse200]:
    """Change a card's status, controls or metadata; cancel it

    Args:
        id (str):
        body (CardUpdateType0 | CardUpdateType1): `cancellationReason` is required with, and
            `creditAccountId` only accepted with, `status: canceled`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UpdateCardResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: CardUpdateType0 | CardUpdateType1,
) -> Error | UpdateCardResponse200 | None:
    """Change a card's status, controls or metadata; cancel it

    Args:
        id (str):
        body (CardUpdateType0 | CardUpdateType1): `cancellationReason` is required with, and
            `creditAccountId` only accepted with, `status: canceled`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UpdateCardResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
