from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.authorization_create_channel import AuthorizationCreateChannel
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.authorization_create_merchant import AuthorizationCreateMerchant
    from ..models.authorization_create_simulate_type_0 import AuthorizationCreateSimulateType0


T = TypeVar("T", bound="AuthorizationCreate")


@_attrs_define
class AuthorizationCreate:
    """
    Attributes:
        amount (float): Exact: at most 2 decimal places (JSON numbers are parsed without a float round trip).
        channel (AuthorizationCreateChannel):
        merchant (AuthorizationCreateMerchant):
        currency (None | str | Unset):
        partial_approval_capable (bool | None | Unset):
        simulate (AuthorizationCreateSimulateType0 | None | Unset):
    """

    amount: float
    channel: AuthorizationCreateChannel
    merchant: AuthorizationCreateMerchant
    currency: None | str | Unset = UNSET
    partial_approval_capable: bool | None | Unset = UNSET
    simulate: AuthorizationCreateSimulateType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.authorization_create_simulate_type_0 import AuthorizationCreateSimulateType0  # noqa: PLC0415

        amount = self.amount

        channel = self.channel.value

        merchant = self.merchant.to_dict()

        currency: None | str | Unset
        if isinstance(self.currency, Unset):
            currency = UNSET
        else:
            currency = self.currency

        partial_approval_capable: bool | None | Unset
        if isinstance(self.partial_approval_capable, Unset):
            partial_approval_capable = UNSET
        else:
            partial_approval_capable = self.partial_approval_capable

        simulate: dict[str, Any] | None | Unset
        if isinstance(self.simulate, Unset):
            simulate = UNSET
        elif isinstance(self.simulate, AuthorizationCreateSimulateType0):
            simulate = self.simulate.to_dict()
        else:
            simulate = self.simulate

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
        if partial_approval_capable is not UNSET:
            field_dict["partialApprovalCapable"] = partial_approval_capable
        if simulate is not UNSET:
            field_dict["simulate"] = simulate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.authorization_create_merchant import AuthorizationCreateMerchant  # noqa: PLC0415
        from ..models.authorization_create_simulate_type_0 import AuthorizationCreateSimulateType0  # noqa: PLC0415

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

        def _parse_partial_approval_capable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        partial_approval_capable = _parse_partial_approval_capable(d.pop("partialApprovalCapable", UNSET))

        def _parse_simulate(data: object) -> AuthorizationCreateSimulateType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                simulate_type_0 = AuthorizationCreateSimulateType0.from_dict(data)

                return simulate_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuthorizationCreateSimulateType0 | None | Unset, data)

        simulate = _parse_simulate(d.pop("simulate", UNSET))

        authorization_create = cls(
            amount=amount,
            channel=channel,
            merchant=merchant,
            currency=currency,
            partial_approval_capable=partial_approval_capable,
            simulate=simulate,
        )

        return authorization_create
