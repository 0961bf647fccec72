from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_transaction_type import CardTransactionType

if TYPE_CHECKING:
    from ..models.merchant import Merchant


T = TypeVar("T", bound="CardTransaction")


@_attrs_define
class CardTransaction:
    """
    Attributes:
        field_id (str):
        card_id (str):
        authorization_id (str):
        type_ (CardTransactionType):
        amount (float): Signed for the card: captures negative, refunds positive.
        currency (str):
        merchant (Merchant):
        created_at (datetime.datetime):
    """

    field_id: str
    card_id: str
    authorization_id: str
    type_: CardTransactionType
    amount: float
    currency: str
    merchant: Merchant
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        field_id = self.field_id

        card_id = self.card_id

        authorization_id = self.authorization_id

        type_ = self.type_.value

        amount = self.amount

        currency = self.currency

        merchant = self.merchant.to_dict()

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "_id": field_id,
                "cardId": card_id,
                "authorizationId": authorization_id,
                "type": type_,
                "amount": amount,
                "currency": currency,
                "merchant": merchant,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.merchant import Merchant  # noqa: PLC0415

        d = dict(src_dict)
        field_id = d.pop("_id")

        card_id = d.pop("cardId")

        authorization_id = d.pop("authorizationId")

        type_ = CardTransactionType(d.pop("type"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        merchant = Merchant.from_dict(d.pop("merchant"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        card_transaction = cls(
            field_id=field_id,
            card_id=card_id,
            authorization_id=authorization_id,
            type_=type_,
            amount=amount,
            currency=currency,
            merchant=merchant,
            created_at=created_at,
        )

        card_transaction.additional_properties = d
        return card_transaction

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
