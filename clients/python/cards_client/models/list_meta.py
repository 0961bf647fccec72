from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ListMeta")


@_attrs_define
class ListMeta:
    """
    Attributes:
        page (int):
        limit (int):
        total (int):
        pages (int):
        sort (None | str):
        fields (None | str):
        search (None | str):
        search_in (None | str):
        filter_ (None | str):
        starting_after (None | str):
        ending_before (None | str):
        has_more (bool): Whether the list goes on past this page (backwards when only `endingBefore` is given)
    """

    page: int
    limit: int
    total: int
    pages: int
    sort: None | str
    fields: None | str
    search: None | str
    search_in: None | str
    filter_: None | str
    starting_after: None | str
    ending_before: None | str
    has_more: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        page = self.page

        limit = self.limit

        total = self.total

        pages = self.pages

        sort: None | str
        sort = self.sort

        fields: None | str
        fields = self.fields

        search: None | str
        search = self.search

        search_in: None | str
        search_in = self.search_in

        filter_: None | str
        filter_ = self.filter_

        starting_after: None | str
        starting_after = self.starting_after

        ending_before: None | str
        ending_before = self.ending_before

        has_more = self.has_more

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "page": page,
                "limit": limit,
                "total": total,
                "pages": pages,
                "sort": sort,
                "fields": fields,
                "search": search,
                "searchIn": search_in,
                "filter": filter_,
                "startingAfter": starting_after,
                "endingBefore": ending_before,
                "hasMore": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        page = d.pop("page")

        limit = d.pop("limit")

        total = d.pop("total")

        pages = d.pop("pages")

        def _parse_sort(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        sort = _parse_sort(d.pop("sort"))

        def _parse_fields(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        fields = _parse_fields(d.pop("fields"))

        def _parse_search(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        search = _parse_search(d.pop("search"))

        def _parse_search_in(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        search_in = _parse_search_in(d.pop("searchIn"))

        def _parse_filter_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        filter_ = _parse_filter_(d.pop("filter"))

        def _parse_starting_after(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        starting_after = _parse_starting_after(d.pop("startingAfter"))

        def _parse_ending_before(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ending_before = _parse_ending_before(d.pop("endingBefore"))

        has_more = d.pop("hasMore")

        list_meta = cls(
            page=page,
            limit=limit,
            total=total,
            pages=pages,
            sort=sort,
            fields=fields,
            search=search,
            search_in=search_in,
            filter_=filter_,
            starting_after=starting_after,
            ending_before=ending_before,
            has_more=has_more,
        )

        list_meta.additional_properties = d
        return list_meta

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
