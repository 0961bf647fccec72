from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_category import AccountCategory
from ..models.account_owner_type import AccountOwnerType
from ..models.account_status import AccountStatus
from ..models.account_type import AccountType

T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """
    Attributes:
        field_id (str):
        owner_type (AccountOwnerType):
        owner_id (None | str):
        client (str):
        name (str):
        type_ (AccountType):
        category (AccountCategory):
        status (AccountStatus):
        currency (str):
        network (None | str):
        balance (float):
        can_debit (bool):
        can_credit (bool):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        available_balance (float):
        ledger_balance (float):
    """

    field_id: str
    owner_type: AccountOwnerType
    owner_id: None | str
    client: str
    name: str
    type_: AccountType
    category: AccountCategory
    status: AccountStatus
    currency: str
    network: None | str
    balance: float
    can_debit: bool
    can_credit: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    available_balance: float
    ledger_balance: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        owner_type = self.owner_type.value

        owner_id: None | str
        owner_id = self.owner_id

        client = self.client

        name = self.name

        type_ = self.type_.value

        category = self.category.value

        status = self.status.value

        currency = self.currency

        network: None | str
        network = self.network

        balance = self.balance

        can_debit = self.can_debit

        can_credit = self.can_credit

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        available_balance = self.available_balance

        ledger_balance = self.ledger_balance

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "ownerType": owner_type,
                "ownerId": owner_id,
                "client": client,
                "name": name,
                "type": type_,
                "category": category,
                "status": status,
                "currency": currency,
                "network": network,
                "balance": balance,
                "canDebit": can_debit,
                "canCredit": can_credit,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "availableBalance": available_balance,
                "ledgerBalance": ledger_balance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field_id = d.pop("_id")

        owner_type = AccountOwnerType(d.pop("ownerType"))

        def _parse_owner_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        owner_id = _parse_owner_id(d.pop("ownerId"))

        client = d.pop("client")

        name = d.pop("name")

        type_ = AccountType(d.pop("type"))

        category = AccountCategory(d.pop("category"))

        status = AccountStatus(d.pop("status"))

        currency = d.pop("currency")

        def _parse_network(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        network = _parse_network(d.pop("network"))

        balance = d.pop("balance")

        can_debit = d.pop("canDebit")

        can_credit = d.pop("canCredit")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        available_balance = d.pop("availableBalance")

        ledger_balance = d.pop("ledgerBalance")

        account = cls(
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

        account.additional_properties = d
        return account

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
