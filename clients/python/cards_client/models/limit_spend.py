from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.limit_spend_interval import LimitSpendInterval

T = TypeVar("T", bound="LimitSpend")


@_attrs_define
class LimitSpend:
    """
    Attributes:
        amount (float):
        interval (LimitSpendInterval):
        categories (list[str]):
        period_start (datetime.datetime | None):
        spent (float):
        available (float):
    """

    amount: float
    interval: LimitSpendInterval
    categories: list[str]
    period_start: datetime.datetime | None
    spent: float
    available: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        interval = self.interval.value

        categories = self.categories

        period_start: None | str
        if isinstance(self.period_start, datetime.datetime):
            period_start = self.period_start.isoformat()
        else:
            period_start = self.period_start

        spent = self.spent

        available = self.available

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "amount": amount,
                "interval": interval,
                "categories": categories,
                "periodStart": period_start,
                "spent": spent,
                "available": available,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        amount = d.pop("amount")

        interval = LimitSpendInterval(d.pop("interval"))

        categories = cast(list[str], d.pop("categories"))

        def _parse_period_start(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_start_type_0 = datetime.datetime.fromisoformat(data)

                return period_start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        period_start = _parse_period_start(d.pop("periodStart"))

        spent = d.pop("spent")

        available = d.pop("available")

        limit_spend = cls(
            amount=amount,
            interval=interval,
            categories=categories,
            period_start=period_start,
            spent=spent,
            available=available,
        )

        limit_spend.additional_properties = d
        return limit_spend

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
