from enum import StrEnum


class ProofOfAddressTypeType3Type1(StrEnum):
    BANK_STATEMENT = "bank_statement"
    GOVERNMENT_LETTER = "government_letter"
    TENANCY_AGREEMENT = "tenancy_agreement"
    UTILITY_BILL = "utility_bill"

    def __str__(self) -> str:
        return str(self.value)
