from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_transaction_list_item_type import CardTransactionListItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.card_transaction_list_item_merchant import CardTransactionListItemMerchant


T = TypeVar("T", bound="CardTransactionListItem")


@_attrs_define
class CardTransactionListItem:
    """
    Attributes:
        field_id (str | Unset):
        card_id (str | Unset):
        authorization_id (str | Unset):
        type_ (CardTransactionListItemType | Unset):
        amount (float | Unset): Signed for the card: captures negative, refunds positive.
        currency (str | Unset):
        merchant (CardTransactionListItemMerchant | Unset):
        created_at (datetime.datetime | Unset):
    """

    field_id: str | Unset = UNSET
    card_id: str | Unset = UNSET
    authorization_id: str | Unset = UNSET
    type_: CardTransactionListItemType | Unset = UNSET
    amount: float | Unset = UNSET
    currency: str | Unset = UNSET
    merchant: CardTransactionListItemMerchant | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        card_id = self.card_id

        authorization_id = self.authorization_id

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value

        amount = self.amount

        currency = self.currency

        merchant: dict[str, Any] | Unset = UNSET
        if not isinstance(self.merchant, Unset):
            merchant = self.merchant.to_dict()

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if field_id is not UNSET:
            field_dict["_id"] = field_id
        if card_id is not UNSET:
            field_dict["cardId"] = card_id
        if authorization_id is not UNSET:
            field_dict["authorizationId"] = authorization_id
        if type_ is not UNSET:
            field_dict["type"] = type_
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if merchant is not UNSET:
            field_dict["merchant"] = merchant
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_transaction_list_item_merchant import CardTransactionListItemMerchant  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id", UNSET)

        card_id = d.pop("cardId", UNSET)

        authorization_id = d.pop("authorizationId", UNSET)

        _type_ = d.pop("type", UNSET)
        type_: CardTransactionListItemType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = CardTransactionListItemType(_type_)

        amount = d.pop("amount", UNSET)

        currency = d.pop("currency", UNSET)

        _merchant = d.pop("merchant", UNSET)
        merchant: CardTransactionListItemMerchant | Unset
        if isinstance(_merchant, Unset):
            merchant = UNSET
        else:
            merchant = CardTransactionListItemMerchant.from_dict(_merchant)

        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        card_transaction_list_item = cls(
            field_id=field_id,
            card_id=card_id,
            authorization_id=authorization_id,
            type_=type_,
            amount=amount,
            currency=currency,
            merchant=merchant,
            created_at=created_at,
        )

        card_transaction_list_item.additional_properties = d
        return card_transaction_list_item

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
