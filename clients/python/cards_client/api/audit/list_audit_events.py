from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_event_list import AuditEventList
from ...models.error import Error
from ...models.list_audit_events_sort import ListAuditEventsSort
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListAuditEventsSort | Unset = UNSET,
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
        "url": "/audit-events",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditEventList | Error | None:
    if response.status_code == 200:
        response_200 = AuditEventList.from_dict(response.json())

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
) -> Response[AuditEventList | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListAuditEventsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> Response[AuditEventList | Error]:
    """List the audit trail: card tokens, reveals (refused ones too) and key changes

    Args:
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListAuditEventsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEventList | Error]
    """

    kwargs = _get_kwargs(
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
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListAuditEventsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> AuditEventList | Error | None:
    """List the audit trail: card tokens, reveals (refused ones too) and key changes

    Args:
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListAuditEventsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEventList | Error
    """

    return sync_detailed(
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
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListAuditEventsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> Response[AuditEventList | Error]:
    """List the audit trail: card tokens, reveals (refused ones too) and key changes

    Args:
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListAuditEventsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEventList | Error]
    """

    kwargs = _get_kwargs(
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
    *,
    client: AuthenticatedClient | Client,
    page: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    starting_after: str | Unset = UNSET,
    ending_before: str | Unset = UNSET,
    sort: ListAuditEventsSort | Unset = UNSET,
    fields: str | Unset = UNSET,
    search: str | Unset = UNSET,
    search_in: str | Unset = UNSET,
    filter_: str | Unset = UNSET,
) -> AuditEventList | Error | None:
    """List the audit trail: card tokens, reveals (refused ones too) and key changes

    Args:
        page (int | Unset):
        limit (int | Unset):
        starting_after (str | Unset):
        ending_before (str | Unset):
        sort (ListAuditEventsSort | Unset):
        fields (str | Unset):
        search (str | Unset):
        search_in (str | Unset):
        filter_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEventList | Error
    """

    return (
        await asyncio_detailed(
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
