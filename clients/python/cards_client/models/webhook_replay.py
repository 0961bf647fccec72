from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookReplay")


@_attrs_define
class WebhookReplay:
    """
    Attributes:
        from_ (datetime.datetime): Before `to` (so, with no `to`, in the past).
        to (datetime.datetime | None | Unset):
    """

    from_: datetime.datetime
    to: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        elif isinstance(self.to, datetime.datetime):
            to = self.to.isoformat()
        else:
            to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
            }
        )
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        def _parse_to(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                to_type_0 = datetime.datetime.fromisoformat(data)

                return to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        webhook_replay = cls(
            from_=from_,
            to=to,
        )

        return webhook_replay
