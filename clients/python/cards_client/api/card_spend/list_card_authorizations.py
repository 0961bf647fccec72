from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.authorization_list import AuthorizationList
from ...models.error import Error
from ...models.list_card_authorizations_sort import ListCardAuthorizationsSort
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListCardAuthorizationsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["limit"] = limit

    params["startingAfter"] = starting_after

    params["endingBefore"] = ending_before

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    params["fields"] = fields

    params["search"] = search

    params["searchIn"] = search_in

    params["filter"] = filter_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/cards/{id}/authorizations".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuthorizationList | Error | None:
    if response.status_code == 200:
        response_200 = AuthorizationList.from_dict(response.json())

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AuthorizationList | Error]:
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
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListCardAuthorizationsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> Response[AuthorizationList | Error]:
    """List a card's authorizations

    Args:
        id (str):
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListCardAuthorizationsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationList | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        page=page,
        limit=limit,
        starting_after=starting_after,
        ending_before=ending_before,
        sort=sort,
        fields=fields,
        search=search,
        search_in=search_in,
        filter_=filter_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListCardAuthorizationsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> AuthorizationList | Error | None:
    """List a card's authorizations

    Args:
        id (str):
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListCardAuthorizationsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationList | Error
    """

    return sync_detailed(
        id=id,
        client=client,
        page=page,
        limit=limit,
        starting_after=starting_after,
        ending_before=ending_before,
        sort=sort,
        fields=fields,
        search=search,
        search_in=search_in,
        filter_=filter_,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListCardAuthorizationsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> Response[AuthorizationList | Error]:
    """List a card's authorizations

    Args:
        id (str):
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListCardAuthorizationsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthorizationList | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        page=page,
        limit=limit,
        starting_after=starting_after,
        ending_before=ending_before,
        sort=sort,
        fields=fields,
        search=search,
        search_in=search_in,
        filter_=filter_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListCardAuthorizationsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> AuthorizationList | Error | None:
    """List a card's authorizations

    Args:
        id (str):
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListCardAuthorizationsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthorizationList | Error
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            page=page,
            limit=limit,
            starting_after=starting_after,
            ending_before=ending_before,
            sort=sort,
            fields=fields,
            search=search,
            search_in=search_in,
            filter_=filter_,
        )
    ).parsed
