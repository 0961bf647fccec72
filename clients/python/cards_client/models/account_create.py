from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.account_create_category import AccountCreateCategory
from ..models.account_create_owner_type import AccountCreateOwnerType
from ..models.account_create_status_type_0 import AccountCreateStatusType0
from ..models.account_create_type import AccountCreateType
from ..types import UNSET, Unset

T = TypeVar("T", bound="AccountCreate")


@_attrs_define
class AccountCreate:
    """
    Attributes:
        owner_type (AccountCreateOwnerType):
        name (str):
        type_ (AccountCreateType):
        category (AccountCreateCategory):
        currency (str): Upper-cased.
        owner_id (None | str | Unset):
        status (AccountCreateStatusType0 | None | Unset):
        network (None | str | Unset):
        balance (float | None | Unset):
        can_debit (bool | None | Unset):
        can_credit (bool | None | Unset):
    """

    owner_type: AccountCreateOwnerType
    name: str
    type_: AccountCreateType
    category: AccountCreateCategory
    currency: str
    owner_id: None | str | Unset = UNSET
    status: AccountCreateStatusType0 | None | Unset = UNSET
    network: None | str | Unset = UNSET
    balance: float | None | Unset = UNSET
    can_debit: bool | None | Unset = UNSET
    can_credit: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        owner_type = self.owner_type.value

        name = self.name

        type_ = self.type_.value

        category = self.category.value

        currency = self.currency

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, AccountCreateStatusType0):
            status = self.status.value
        else:
            status = self.status

        network: None | str | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        else:
            network = self.network

        balance: float | None | Unset
        if isinstance(self.balance, Unset):
            balance = UNSET
        else:
            balance = self.balance

        can_debit: bool | None | Unset
        if isinstance(self.can_debit, Unset):
            can_debit = UNSET
        else:
            can_debit = self.can_debit

        can_credit: bool | None | Unset
        if isinstance(self.can_credit, Unset):
            can_credit = UNSET
        else:
            can_credit = self.can_credit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ownerType": owner_type,
                "name": name,
                "type": type_,
                "category": category,
                "currency": currency,
            }
        )
        if owner_id is not UNSET:
            field_dict["ownerId"] = owner_id
        if status is not UNSET:
            field_dict["status"] = status
        if network is not UNSET:
            field_dict["network"] = network
        if balance is not UNSET:
            field_dict["balance"] = balance
        if can_debit is not UNSET:
            field_dict["canDebit"] = can_debit
        if can_credit is not UNSET:
            field_dict["canCredit"] = can_credit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        owner_type = AccountCreateOwnerType(d.pop("ownerType"))

        name = d.pop("name")

        type_ = AccountCreateType(d.pop("type"))

        category = AccountCreateCategory(d.pop("category"))

        currency = d.pop("currency")

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("ownerId", UNSET))

        def _parse_status(data: object) -> AccountCreateStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = AccountCreateStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountCreateStatusType0 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_network(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

        def _parse_balance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        balance = _parse_balance(d.pop("balance", UNSET))

        def _parse_can_debit(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        can_debit = _parse_can_debit(d.pop("canDebit", UNSET))

        def _parse_can_credit(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        can_credit = _parse_can_credit(d.pop("canCredit", UNSET))

        account_create = cls(
            owner_type=owner_type,
            name=name,
            type_=type_,
            category=category,
            currency=currency,
            owner_id=owner_id,
            status=status,
            network=network,
            balance=balance,
            can_debit=can_debit,
            can_credit=can_credit,
        )

        return account_create
