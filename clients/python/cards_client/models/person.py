from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.person_gender_type_1 import PersonGenderType1
from ..models.person_gender_type_2_type_1 import PersonGenderType2Type1
from ..models.person_gender_type_3_type_1 import PersonGenderType3Type1

T = TypeVar("T", bound="Person")


@_attrs_define
class Person:
    """
    Attributes:
        first_name (str):
        last_name (str):
        date_of_birth (datetime.date | None):
        email (str):
        nationality (None | str):
        gender (None | PersonGenderType1 | PersonGenderType2Type1 | PersonGenderType3Type1):
        phone_number (str):
    """

    first_name: str
    last_name: str
    date_of_birth: datetime.date | None
    email: str
    nationality: None | str
    gender: None | PersonGenderType1 | PersonGenderType2Type1 | PersonGenderType3Type1
    phone_number: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_name = self.first_name

        last_name = self.last_name

        date_of_birth: None | str
        if isinstance(self.date_of_birth, datetime.date):
            date_of_birth = self.date_of_birth.isoformat()
        else:
            date_of_birth = self.date_of_birth

        email = self.email

        nationality: None | str
        nationality = self.nationality

        gender: None | str
        if isinstance(self.gender, PersonGenderType1):
            gender = self.gender.value
        elif isinstance(self.gender, PersonGenderType2Type1):
            gender = self.gender.value
        elif isinstance(self.gender, PersonGenderType3Type1):
            gender = self.gender.value
        else:
            gender = self.gender

        phone_number = self.phone_number

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "firstName": first_name,
                "lastName": last_name,
                "dateOfBirth": date_of_birth,
                "email": email,
                "nationality": nationality,
                "gender": gender,
                "phoneNumber": phone_number,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first_name = d.pop("firstName")

        last_name = d.pop("lastName")

        def _parse_date_of_birth(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                date_of_birth_type_0 = datetime.date.fromisoformat(data)

                return date_of_birth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        date_of_birth = _parse_date_of_birth(d.pop("dateOfBirth"))

        email = d.pop("email")

        def _parse_nationality(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        nationality = _parse_nationality(d.pop("nationality"))

        def _parse_gender(data: object) -> None | PersonGenderType1 | PersonGenderType2Type1 | PersonGenderType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_1 = PersonGenderType1(data)

                return gender_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_2_type_1 = PersonGenderType2Type1(data)

                return gender_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                gender_type_3_type_1 = PersonGenderType3Type1(data)

                return gender_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PersonGenderType1 | PersonGenderType2Type1 | PersonGenderType3Type1, data)

        gender = _parse_gender(d.pop("gender"))

        phone_number = d.pop("phoneNumber")

        person = cls(
            first_name=first_name,
            last_name=last_name,
            date_of_birth=date_of_birth,
            email=email,
            nationality=nationality,
            gender=gender,
            phone_number=phone_number,
        )

        person.additional_properties = d
        return person

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
