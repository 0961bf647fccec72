//! The vault keys (AES-256 for PAN and CVV): from configuration (`--vault-key`, repeatable), a key
//! file of the operator's (`--vault-key-file`, e.g. a mounted secret: one key per line, readable by
//! its owner only), or a file beside the data file that is created once (mode 0600, durably: its
//! bytes and its directory entry synced) and reused on every later start. A key file a crash could
//! take back would leave every card number sealed under a key nobody has. The first key seals; the
//! others only open what they sealed, until `cards vault rotate` (README "Card data security").

use std::io::{self, ErrorKind};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::store::disk::{self, Disk};
use crate::system_env::{RandomError, random_bytes};

/// Where the key lives when configuration gives none: `<data file>.vault-key`.
pub fn key_file_for(data: &Path) -> PathBuf {
    let mut name = data.as_os_str().to_owned();
    name.push(".vault-key");
    PathBuf::from(name)
}

pub use card_core::domain::vault::parse_key_hex as parse_hex;

/// Where a key came from, so startup can say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Configured,
    KeyFile(PathBuf),
    FileReused(PathBuf),
    FileCreated(PathBuf),
}

#[derive(Debug, thiserror::Error)]
pub enum VaultKeyError {
    #[error(
        "--store needs the vault key configured: pass --vault-key or set CARDS_VAULT_KEY \
         (64 hex characters, the same for every instance on this database)"
    )]
    NotConfigured,
    #[error("--vault-key / CARDS_VAULT_KEY: {0}")]
    Configured(String),
    #[error("give the vault keys by --vault-key or by --vault-key-file, not both")]
    Both,
    #[error(
        "secret file {}: readable by others (mode {mode:o}); make it readable by its owner only \
         (chmod 600)", path.display()
    )]
    Exposed { path: PathBuf, mode: u32 },
    #[error("vault key file {}: {reason}", path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("cannot {action} vault key file {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Random(#[from] RandomError),
}

/// The configured keys if any (flags, or the operator's key file), else those in
/// `<data>.vault-key`, created with one key on first use. A shared database (`store`) has no key
/// file beside it: every instance must be given the same keys. The first key is the active one.
pub fn resolve(
    configured: &[String],
    key_file: Option<&Path>,
    store: Option<&str>,
    data: &Path,
) -> Result<(Vec<[u8; 32]>, Source), VaultKeyError> {
    let configured: Vec<&str> = configured
        .iter()
        .map(|k| k.trim())
        .filter(|k| !k.is_empty())
        .collect();
    match (configured.is_empty(), key_file) {
        (false, Some(_)) => Err(VaultKeyError::Both),
        (false, None) => configured
            .iter()
            .map(|k| parse_hex(k))
            .collect::<Result<Vec<_>, _>>()
            .map(|k| (k, Source::Configured))
            .map_err(VaultKeyError::Configured),
        (true, Some(path)) => {
            check_private(path)?;
            match read(&disk::RealDisk, path)? {
                Some(keys) => Ok((keys, Source::KeyFile(path.to_path_buf()))),
                None => Err(VaultKeyError::Io {
                    action: "read",
                    path: path.to_path_buf(),
                    source: io::Error::from(ErrorKind::NotFound),
                }),
            }
        }
        (true, None) if store.is_some() => Err(VaultKeyError::NotConfigured),
        (true, None) => load_or_create(&disk::RealDisk, &key_file_for(data)),
    }
}

/// Refuses a secret file that group or others may read (a mounted secret should be `0400`/`0600`).
pub fn check_private(path: &Path) -> Result<(), VaultKeyError> {
    let mode = std::fs::metadata(path)
        .map_err(|source| VaultKeyError::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        })?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(VaultKeyError::Exposed {
            path: path.to_path_buf(),
            mode: mode & 0o777,
        });
    }
    Ok(())
}

/// The text of a private secret file (see [`check_private`]), wiped from memory when dropped.
pub fn read_private(path: &Path) -> Result<zeroize::Zeroizing<String>, VaultKeyError> {
    check_private(path)?;
    let text = std::fs::read_to_string(path).map_err(|source| VaultKeyError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    Ok(zeroize::Zeroizing::new(text))
}

/// The keys of a key file's text: one per line (64 hex characters), blank lines and `#` comments
/// ignored, at least one.
pub fn parse_lines(text: &str) -> Result<Vec<[u8; 32]>, String> {
    let keys = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(parse_hex)
        .collect::<Result<Vec<_>, _>>()?;
    if keys.is_empty() {
        return Err("holds no key".into());
    }
    Ok(keys)
}

pub fn load_or_create(
    disk: &dyn Disk,
    path: &Path,
) -> Result<(Vec<[u8; 32]>, Source), VaultKeyError> {
    if let Some(keys) = read(disk, path)? {
        return Ok((keys, Source::FileReused(path.to_path_buf())));
    }
    let key = random_bytes::<32>()?;
    // create_new: two servers starting at once must not overwrite each other's key.
    match disk::create_durably(disk, path, format!("{}\n", hex::encode(key)).as_bytes()) {
        Ok(()) => Ok((vec![key], Source::FileCreated(path.to_path_buf()))),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => match read(disk, path)? {
            Some(keys) => Ok((keys, Source::FileReused(path.to_path_buf()))),
            None => Err(VaultKeyError::Io {
                action: "read",
                path: path.to_path_buf(),
                source: io::Error::from(ErrorKind::NotFound),
            }),
        },
        Err(source) => Err(VaultKeyError::Io {
            action: "write",
            path: path.to_path_buf(),
            source,
        }),
    }
}

fn read(disk: &dyn Disk, path: &Path) -> Result<Option<Vec<[u8; 32]>>, VaultKeyError> {
    let io_error = |source| VaultKeyError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    };
    let bytes = match disk.open(path) {
        Ok(file) => file.read_all().map_err(io_error)?,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(e)),
    };
    let unreadable = |reason: String| VaultKeyError::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let text = zeroize::Zeroizing::new(
        String::from_utf8(bytes).map_err(|_| unreadable("not text".into()))?,
    );
    parse_lines(&text).map(Some).map_err(unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn creates_a_private_key_file_once_and_reuses_it() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("cards.redb");
        let (first, source) = resolve(&[], None, None, &data).unwrap();
        let first = first[0];
        let path = dir.path().join("cards.redb.vault-key");
        assert_eq!(source, Source::FileCreated(path.clone()));
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(
            fs::read_to_string(&path).unwrap().trim(),
            hex::encode(first)
        );

        let (again, source) = resolve(&[], None, None, &data).unwrap();
        assert_eq!(again, vec![first]);
        assert_eq!(source, Source::FileReused(path));
    }

    #[test]
    fn configured_key_wins_and_bad_hex_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("cards.redb");
        let hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        let (key, source) = resolve(&[hex.into()], None, None, &data).unwrap();
        assert_eq!(source, Source::Configured);
        assert_eq!(key[0][1], 0x11);
        assert!(!key_file_for(&data).exists());

        let err = resolve(&["xyz".into()], None, None, &data)
            .unwrap_err()
            .to_string();
        assert!(err.contains("64 hex"), "{err}");
        assert!(resolve(&[hex[..62].into()], None, None, &data).is_err());
        // A shared database has no key file beside it.
        let err = resolve(&[], None, Some("postgres://db/cards"), &data)
            .unwrap_err()
            .to_string();
        assert!(err.contains("--store needs the vault key"), "{err}");

        fs::write(key_file_for(&data), "not hex").unwrap();
        let err = resolve(&[], None, None, &data).unwrap_err().to_string();
        assert!(err.contains("vault key file"), "{err}");
    }

    #[test]
    fn a_key_file_holds_several_keys_and_must_be_private() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("cards.redb");
        let path = dir.path().join("keys");
        let (a, b) = ("0a".repeat(32), "0b".repeat(32));
        fs::write(&path, format!("# active first\n{a}\n\n{b}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        let err = resolve(&[], Some(&path), None, &data)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("readable by others") && err.contains("640"),
            "{err}"
        );
        fs::set_permissions(&path, fs::Permissions::from_mode(0o400)).unwrap();
        let (keys, source) = resolve(&[], Some(&path), Some("postgres://db/c"), &data).unwrap();
        assert_eq!(keys, vec![[0x0a; 32], [0x0b; 32]]);
        assert_eq!(source, Source::KeyFile(path.clone()));
        assert!(resolve(std::slice::from_ref(&a), Some(&path), None, &data).is_err());
        let (keys, _) = resolve(&[b, a], None, None, &data).unwrap();
        assert_eq!(keys, vec![[0x0b; 32], [0x0a; 32]]);
        assert!(parse_lines("# nothing\n").is_err());
    }
}
