from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_list_item_category import AccountListItemCategory
from ..models.account_list_item_owner_type import AccountListItemOwnerType
from ..models.account_list_item_status import AccountListItemStatus
from ..models.account_list_item_type import AccountListItemType
from ..types import UNSET, Unset

T = TypeVar("T", bound="AccountListItem")


@_attrs_define
class AccountListItem:
    """
    Attributes:
        field_id (str | Unset):
        owner_type (AccountListItemOwnerType | Unset):
        owner_id (None | str | Unset):
        client (str | Unset):
        name (str | Unset):
        type_ (AccountListItemType | Unset):
        category (AccountListItemCategory | Unset):
        status (AccountListItemStatus | Unset):
        currency (str | Unset):
        network (None | str | Unset):
        balance (float | Unset):
        can_debit (bool | Unset):
        can_credit (bool | Unset):
        created_at (datetime.datetime | Unset):
        updated_at (datetime.datetime | Unset):
        available_balance (float | Unset):
        ledger_balance (float | Unset):
    """

    field_id: str | Unset = UNSET
    owner_type: AccountListItemOwnerType | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    client: str | Unset = UNSET
    name: str | Unset = UNSET
    type_: AccountListItemType | Unset = UNSET
    category: AccountListItemCategory | Unset = UNSET
    status: AccountListItemStatus | Unset = UNSET
    currency: str | Unset = UNSET
    network: None | str | Unset = UNSET
    balance: float | Unset = UNSET
    can_debit: bool | Unset = UNSET
    can_credit: bool | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    available_balance: float | Unset = UNSET
    ledger_balance: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        owner_type: str | Unset = UNSET
        if not isinstance(self.owner_type, Unset):
            owner_type = self.owner_type.value

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        client = self.client

        name = self.name

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        category: str | Unset = UNSET
        if not isinstance(self.category, Unset):
            category = self.category.value

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        currency = self.currency

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        else:
            network = self.network

        balance = self.balance

        can_debit = self.can_debit

        can_credit = self.can_credit

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        available_balance = self.available_balance

        ledger_balance = self.ledger_balance

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if owner_type is not UNSET:
            field_dict["ownerType"] = owner_type
        if owner_id is not UNSET:
            field_dict["ownerId"] = owner_id
        if client is not UNSET:
            field_dict["client"] = client
        if name is not UNSET:
            field_dict["name"] = name
        if type_ is not UNSET:
            field_dict["type"] = type_
        if category is not UNSET:
            field_dict["category"] = category
        if status is not UNSET:
            field_dict["status"] = status
        if currency is not UNSET:
            field_dict["currency"] = currency
        if network is not UNSET:
            field_dict["network"] = network
        if balance is not UNSET:
            field_dict["balance"] = balance
        if can_debit is not UNSET:
            field_dict["canDebit"] = can_debit
        if can_credit is not UNSET:
            field_dict["canCredit"] = can_credit
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at
        if available_balance is not UNSET:
            field_dict["availableBalance"] = available_balance
        if ledger_balance is not UNSET:
            field_dict["ledgerBalance"] = ledger_balance

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        _owner_type = d.pop("ownerType", UNSET)
        owner_type: AccountListItemOwnerType | Unset
        if isinstance(_owner_type, Unset):
            owner_type = UNSET
        else:
            owner_type = AccountListItemOwnerType(_owner_type)

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("ownerId", UNSET))

        client = d.pop("client", UNSET)

        name = d.pop("name", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: AccountListItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = AccountListItemType(_type_)

        _category = d.pop("category", UNSET)
        category: AccountListItemCategory | Unset
        if isinstance(_category, Unset):
            category = UNSET
        else:
            category = AccountListItemCategory(_category)

        _status = d.pop("status", UNSET)
        status: AccountListItemStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = AccountListItemStatus(_status)

        currency = d.pop("currency", UNSET)

        def _parse_network(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

        balance = d.pop("balance", UNSET)

        can_debit = d.pop("canDebit", UNSET)

        can_credit = d.pop("canCredit", UNSET)

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

        available_balance = d.pop("availableBalance", UNSET)

        ledger_balance = d.pop("ledgerBalance", UNSET)

        account_list_item = cls(
            field_id=field_id,
            owner_type=owner_type,
            owner_id=owner_id,
            client=client,
            name=name,
            type_=type_,
            category=category,
            status=status,
            currency=currency,
            network=network,
            balance=balance,
            can_debit=can_debit,
            can_credit=can_credit,
            created_at=created_at,
            updated_at=updated_at,
            available_balance=available_balance,
            ledger_balance=ledger_balance,
        )

        account_list_item.additional_properties = d
        return account_list_item

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
