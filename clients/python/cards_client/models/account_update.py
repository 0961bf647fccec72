from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.account_update_category_type_0 import AccountUpdateCategoryType0
from ..models.account_update_owner_type_type_0 import AccountUpdateOwnerTypeType0
from ..models.account_update_status_type_0 import AccountUpdateStatusType0
from ..models.account_update_type_type_0 import AccountUpdateTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="AccountUpdate")


@_attrs_define
class AccountUpdate:
    """
    Attributes:
        owner_type (AccountUpdateOwnerTypeType0 | None | Unset):
        owner_id (None | str | Unset):
        name (None | str | Unset):
        type_ (AccountUpdateTypeType0 | None | Unset):
        category (AccountUpdateCategoryType0 | None | Unset):
        status (AccountUpdateStatusType0 | None | Unset):
        currency (None | str | Unset):
        network (None | str | Unset):
        balance (float | None | Unset):
        can_debit (bool | None | Unset):
        can_credit (bool | None | Unset):
    """

    owner_type: AccountUpdateOwnerTypeType0 | None | Unset = UNSET
    owner_id: None | str | Unset = UNSET
    name: None | str | Unset = UNSET
    type_: AccountUpdateTypeType0 | None | Unset = UNSET
    category: AccountUpdateCategoryType0 | None | Unset = UNSET
    status: AccountUpdateStatusType0 | None | Unset = UNSET
    currency: None | str | Unset = UNSET
    network: None | str | Unset = UNSET
    balance: float | None | Unset = UNSET
    can_debit: bool | None | Unset = UNSET
    can_credit: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        owner_type: None | str | Unset
        if isinstance(self.owner_type, Unset):
            owner_type = UNSET
        elif isinstance(self.owner_type, AccountUpdateOwnerTypeType0):
            owner_type = self.owner_type.value
        else:
            owner_type = self.owner_type

        owner_id: None | str | Unset
        if isinstance(self.owner_id, Unset):
            owner_id = UNSET
        else:
            owner_id = self.owner_id

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, AccountUpdateTypeType0):
            type_ = self.type_.value
        else:
            type_ = self.type_

        category: None | str | Unset
        if isinstance(self.category, Unset):
            category = UNSET
        elif isinstance(self.category, AccountUpdateCategoryType0):
            category = self.category.value
        else:
            category = self.category

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, AccountUpdateStatusType0):
            status = self.status.value
        else:
            status = self.status

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

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

        field_dict.update({})
        if owner_type is not UNSET:
            field_dict["ownerType"] = owner_type
        if owner_id is not UNSET:
            field_dict["ownerId"] = owner_id
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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_owner_type(data: object) -> AccountUpdateOwnerTypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                owner_type_type_0 = AccountUpdateOwnerTypeType0(data)

                return owner_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountUpdateOwnerTypeType0 | None | Unset, data)

        owner_type = _parse_owner_type(d.pop("ownerType", UNSET))

        def _parse_owner_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner_id = _parse_owner_id(d.pop("ownerId", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_type_(data: object) -> AccountUpdateTypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = AccountUpdateTypeType0(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountUpdateTypeType0 | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        def _parse_category(data: object) -> AccountUpdateCategoryType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                category_type_0 = AccountUpdateCategoryType0(data)

                return category_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountUpdateCategoryType0 | None | Unset, data)

        category = _parse_category(d.pop("category", UNSET))

        def _parse_status(data: object) -> AccountUpdateStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = AccountUpdateStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AccountUpdateStatusType0 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_currency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

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

        account_update = cls(
            owner_type=owner_type,
            owner_id=owner_id,
            name=name,
            type_=type_,
            category=category,
            status=status,
            currency=currency,
            network=network,
            balance=balance,
            can_debit=can_debit,
            can_credit=can_credit,
        )

        return account_update
