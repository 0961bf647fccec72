from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_detail_list_item_type import AccountDetailListItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.account_detail_list_item_details import AccountDetailListItemDetails


T = TypeVar("T", bound="AccountDetailListItem")


@_attrs_define
class AccountDetailListItem:
    """
    Attributes:
        field_id (str | Unset):
        account_id (str | Unset):
        type_ (AccountDetailListItemType | Unset):
        details (AccountDetailListItemDetails | Unset):
        provider (str | Unset):
        is_primary (bool | Unset):
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    account_id: str | Unset = UNSET
    type_: AccountDetailListItemType | Unset = UNSET
    details: AccountDetailListItemDetails | Unset = UNSET
    provider: str | Unset = UNSET
    is_primary: bool | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        account_id = self.account_id

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()

        provider = self.provider

        is_primary = self.is_primary

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if account_id is not UNSET:
            field_dict["accountId"] = account_id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if details is not UNSET:
            field_dict["details"] = details
        if provider is not UNSET:
            field_dict["provider"] = provider
        if is_primary is not UNSET:
            field_dict["isPrimary"] = is_primary
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account_detail_list_item_details import AccountDetailListItemDetails  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        account_id = d.pop("accountId", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: AccountDetailListItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = AccountDetailListItemType(_type_)

        _details = d.pop("details", UNSET)
        details: AccountDetailListItemDetails | Unset
        if isinstance(_details, Unset):
            details = UNSET
        else:
            details = AccountDetailListItemDetails.from_dict(_details)

        provider = d.pop("provider", UNSET)

        is_primary = d.pop("isPrimary", UNSET)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updatedAt", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        account_detail_list_item = cls(
            field_id=field_id,
            account_id=account_id,
            type_=type_,
            details=details,
            provider=provider,
            is_primary=is_primary,
            created_at=created_at,
            updated_at=updated_at,
        )

        account_detail_list_item.additional_properties = d
        return account_detail_list_item

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
