from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.api_key_list_filter import ApiKeyListFilter
    from ..models.api_key_list_item import ApiKeyListItem
    from ..models.list_meta import ListMeta


T = TypeVar("T", bound="ApiKeyList")


@_attrs_define
class ApiKeyList:
    """
    Attributes:
        status_code (int):
        message (str):
        data (list[ApiKeyListItem]):
        meta (ListMeta):
        filter_ (ApiKeyListFilter): The filter as understood, Mongo style.
    """

    status_code: int
    message: str
    data: list[ApiKeyListItem]
    meta: ListMeta
    filter_: ApiKeyListFilter
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status_code = self.status_code

        message = self.message

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        meta = self.meta.to_dict()

        filter_ = self.filter_.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "statusCode": status_code,
                "message": message,
                "data": data,
                "meta": meta,
                "filter": filter_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_key_list_filter import ApiKeyListFilter  # noqa: PLC0415
        from ..models.api_key_list_item import ApiKeyListItem  # noqa: PLC0415
        from ..models.list_meta import ListMeta  # noqa: PLC0415

        d = dict(src_dict)
        status_code = d.pop("statusCode")

        message = d.pop("message")

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = ApiKeyListItem.from_dict(data_item_data)

            data.append(data_item)

        meta = ListMeta.from_dict(d.pop("meta"))

        filter_ = ApiKeyListFilter.from_dict(d.pop("filter"))

        api_key_list = cls(
            status_code=status_code,
            message=message,
            data=data,
            meta=meta,
            filter_=filter_,
        )

        api_key_list.additional_properties = d
        return api_key_list

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
