from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.advance_test_clock_response_200 import AdvanceTestClockResponse200
from ...models.error import Error
from ...models.test_clock_advance import TestClockAdvance
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: TestClockAdvance,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/test-clock/advance",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdvanceTestClockResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = AdvanceTestClockResponse200.from_dict(response.json())

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
) -> Response[AdvanceTestClockResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TestClockAdvance,
    idempotency_key: str | Unset = UNSET,
) -> Response[AdvanceTestClockResponse200 | Error]:
    """Move the caller's test clock forward (at most 10 years ahead in total): holds expire, limit periods
    roll, tokens and idempotency records age

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvance):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdvanceTestClockResponse200 | Error]
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
    body: TestClockAdvance,
    idempotency_key: str | Unset = UNSET,
) -> AdvanceTestClockResponse200 | Error | None:
    """Move the caller's test clock forward (at most 10 years ahead in total): holds expire, limit periods
    roll, tokens and idempotency records age

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvance):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdvanceTestClockResponse200 | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TestClockAdvance,
    idempotency_key: str | Unset = UNSET,
) -> Response[AdvanceTestClockResponse200 | Error]:
    """Move the caller's test clock forward (at most 10 years ahead in total): holds expire, limit periods
    roll, tokens and idempotency records age

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvance):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdvanceTestClockResponse200 | Error]
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
    body: TestClockAdvance,
    idempotency_key: str | Unset = UNSET,
) -> AdvanceTestClockResponse200 | Error | None:
    """Move the caller's test clock forward (at most 10 years ahead in total): holds expire, limit periods
    roll, tokens and idempotency records age

    Args:
        idempotency_key (str | Unset):
        body (TestClockAdvance):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdvanceTestClockResponse200 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
