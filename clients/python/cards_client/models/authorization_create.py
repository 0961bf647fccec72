from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.authorization_create_channel import AuthorizationCreateChannel
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.authorization_create_merchant import AuthorizationCreateMerchant


T = TypeVar("T", bound="AuthorizationCreate")


@_attrs_define
class AuthorizationCreate:
    """
    Attributes:
        amount (float): Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip).
        channel (AuthorizationCreateChannel):
        merchant (AuthorizationCreateMerchant):
        currency (None | str | Unset):
    """

    amount: float
    channel: AuthorizationCreateChannel
    merchant: AuthorizationCreateMerchant
    currency: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        channel = self.channel.value

        merchant = self.merchant.to_dict()

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "channel": channel,
                "merchant": merchant,
            }
        )
        if currency is not UNSET:
            field_dict["currency"] = currency

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.authorization_create_merchant import AuthorizationCreateMerchant  # noqa: PLC0415

        d = dict(src_dict)
        amount = d.pop("amount")

        channel = AuthorizationCreateChannel(d.pop("channel"))

        merchant = AuthorizationCreateMerchant.from_dict(d.pop("merchant"))

        def _parse_currency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        currency = _parse_currency(d.pop("currency", UNSET))

        authorization_create = cls(
            amount=amount,
            channel=channel,
            merchant=merchant,
            currency=currency,
        )

        return authorization_create
