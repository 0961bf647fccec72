from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_list_item_type import EventListItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_list_item_data import EventListItemData


T = TypeVar("T", bound="EventListItem")


@_attrs_define
class EventListItem:
    """
    Attributes:
        field_id (str | Unset):
        type_ (EventListItemType | Unset):
        data (EventListItemData | Unset):
        created_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    type_: EventListItemType | Unset = UNSET
    data: EventListItemData | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if data is not UNSET:
            field_dict["data"] = data
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_list_item_data import EventListItemData  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: EventListItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = EventListItemType(_type_)

        _data = d.pop("data", UNSET)
        data: EventListItemData | Unset
        if isinstance(_data, Unset):
            data = UNSET
        else:
            data = EventListItemData.from_dict(_data)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        event_list_item = cls(
            field_id=field_id,
            type_=type_,
            data=data,
            created_at=created_at,
        )

        event_list_item.additional_properties = d
        return event_list_item

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
