from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_holder_list_item_person_gender_type_1 import CardHolderListItemPersonGenderType1
from ..models.card_holder_list_item_person_gender_type_2_type_1 import CardHolderListItemPersonGenderType2Type1
from ..models.card_holder_list_item_person_gender_type_3_type_1 import CardHolderListItemPersonGenderType3Type1
from ..types import UNSET, Unset

T = TypeVar("T", bound="CardHolderListItemPerson")


@_attrs_define
class CardHolderListItemPerson:
    """
    Attributes:
        first_name (str | Unset):
        last_name (str | Unset):
        date_of_birth (datetime.date | None | Unset):
        email (str | Unset):
        nationality (None | str | Unset):
        gender (CardHolderListItemPersonGenderType1 | CardHolderListItemPersonGenderType2Type1 |
            CardHolderListItemPersonGenderType3Type1 | None | Unset):
        phone_number (str | Unset):
    """

    first_name: str | Unset = UNSET
    last_name: str | Unset = UNSET
    date_of_birth: datetime.date | None | Unset = UNSET
    email: str | Unset = UNSET
    nationality: None | str | Unset = UNSET
    gender: (
        CardHolderListItemPersonGenderType1
        | CardHolderListItemPersonGenderType2Type1
        | CardHolderListItemPersonGenderType3Type1
        | None
        | Unset
    ) = UNSET
    phone_number: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        last_name = self.last_name

        date_of_birth: None | str | Unset
        if isinstance(self.date_of_birth, Unset):
            date_of_birth = UNSET
        elif isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        email = self.email

        nationality: None | str | Unset
        if isinstance(self.nationality, Unset):
            nationality = UNSET
        else:
            nationality = self.nationality

        gender: None | str | Unset
        if isinstance(self.gender, Unset):
            gender = UNSET
        elif isinstance(self.gender, CardHolderListItemPersonGenderType1):
            gender = self.gender.value
        elif isinstance(self.gender, CardHolderListItemPersonGenderType2Type1):
            gender = self.gender.value
        elif isinstance(self.gender, CardHolderListItemPersonGenderType3Type1):
            gender = self.gender.value
        else:
            gender = self.gender

        phone_number = self.phone_number

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if first_name is not UNSET:
            field_dict["firstName"] = first_name
        if last_name is not UNSET:
            field_dict["lastName"] = last_name
        if date_of_birth is not UNSET:
            field_dict["dateOfBirth"] = date_of_birth
        if email is not UNSET:
            field_dict["email"] = email
        if nationality is not UNSET:
            field_dict["nationality"] = nationality
        if gender is not UNSET:
            field_dict["gender"] = gender
        if phone_number is not UNSET:
            field_dict["phoneNumber"] = phone_number

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_name = d.pop("firstName", UNSET)

        last_name = d.pop("lastName", UNSET)

        def _parse_date_of_birth(data: object) -> datetime.date | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_of_birth_type_0 = datetime.date.fromisoformat(data)

                return date_of_birth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None | Unset, data)

        date_of_birth = _parse_date_of_birth(d.pop("dateOfBirth", UNSET))

        email = d.pop("email", UNSET)

        def _parse_nationality(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        nationality = _parse_nationality(d.pop("nationality", UNSET))

        def _parse_gender(
            data: object,
        ) -> (
            CardHolderListItemPersonGenderType1
            | CardHolderListItemPersonGenderType2Type1
            | CardHolderListItemPersonGenderType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_1 = CardHolderListItemPersonGenderType1(data)

                return gender_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_2_type_1 = CardHolderListItemPersonGenderType2Type1(data)

                return gender_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_3_type_1 = CardHolderListItemPersonGenderType3Type1(data)

                return gender_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                CardHolderListItemPersonGenderType1
                | CardHolderListItemPersonGenderType2Type1
                | CardHolderListItemPersonGenderType3Type1
                | None
                | Unset,
                data,
            )

        gender = _parse_gender(d.pop("gender", UNSET))

        phone_number = d.pop("phoneNumber", UNSET)

        card_holder_list_item_person = cls(
            first_name=first_name,
            last_name=last_name,
            date_of_birth=date_of_birth,
            email=email,
            nationality=nationality,
            gender=gender,
            phone_number=phone_number,
        )

        card_holder_list_item_person.additional_properties = d
        return card_holder_list_item_person

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
