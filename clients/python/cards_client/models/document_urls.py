from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DocumentUrls")


@_attrs_define
class DocumentUrls:
    """
    Attributes:
        main (None | str):
        back (None | str):
    """

    main: None | str
    back: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        main: None | str
        main = self.main

        back: None | str
        back = self.back

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "main": main,
                "back": back,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_main(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        main = _parse_main(d.pop("main"))

        def _parse_back(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        back = _parse_back(d.pop("back"))

        document_urls = cls(
            main=main,
            back=back,
        )

        document_urls.additional_properties = d
        return document_urls

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
