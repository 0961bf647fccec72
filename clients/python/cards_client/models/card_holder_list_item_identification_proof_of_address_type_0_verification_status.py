from enum import StrEnum


class CardHolderListItemIdentificationProofOfAddressType0VerificationStatus(StrEnum):
    PENDING = "pending"
    REJECTED = "rejected"
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
