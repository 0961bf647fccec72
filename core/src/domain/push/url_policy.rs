//! Where the service may send: the defence against server-side request forgery. A URL is checked when a
//! client configures it (`check_url`), and every address its host name resolves to is checked again when
//! a message is sent (`check_addr`), before any connection, so a name that later resolves somewhere
//! refused is never called.
//!
//! - `https://` may go to any public address; `http://` only to loopback (127.0.0.0/8, ::1, `localhost`).
//! - Link-local addresses, which include the cloud metadata services (169.254.0.0/16, fe80::/10,
//!   fd00:ec2::254), are always refused, as are unspecified, multicast, broadcast and reserved ones.
//! - Private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) only when the operator allows
//!   them (`UrlPolicy::allow_private`), over either scheme.

// `core::net`: the address types only; the core opens no sockets.
use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The operator's choice: whether private network ranges may be called.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UrlPolicy {
    pub allow_private: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Host {
    /// A DNS name (lowercase, as the URL parser normalised it).
    Name(String),
    Ip(IpAddr),
}

/// A URL that passed the configuration-time check, in the parts a host needs to send to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The URL as normalised by the parser (what is stored and shown).
    pub url: String,
    pub scheme: Scheme,
    pub host: Host,
    pub port: u16,
    /// Path and query, as the request line carries them.
    pub path_and_query: String,
}

impl Target {
    /// The `Host` header's value.
    pub fn authority(&self) -> String {
        let host = match &self.host {
            Host::Name(name) => name.clone(),
            Host::Ip(IpAddr::V4(ip)) => ip.to_string(),
            Host::Ip(IpAddr::V6(ip)) => format!("[{ip}]"),
        };
        let default = match self.scheme {
            Scheme::Http => 80,
            Scheme::Https => 443,
        };
        if self.port == default {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }
}

/// Why a URL or an address is refused (said to the client as the `url` field's error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal(pub String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(why: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(why.into()))
}

/// The longest URL an endpoint (webhook or decision) may have, in characters (as the document's
/// `maxLength` counts them).
pub const MAX_URL: usize = 2048;

/// The configuration-time check: an absolute http(s) URL without credentials whose literal address, if
/// it has one, may be called. A name is checked again after DNS, at each send.
pub fn check_url(policy: UrlPolicy, raw: &str) -> Result<Target, Refusal> {
    if raw.chars().count() > MAX_URL {
        return refuse(format!("must be at most {MAX_URL} characters"));
    }
    let url = url::Url::parse(raw).or_else(|_| refuse("must be an absolute http or https URL"))?;
    let scheme = match url.scheme() {
        "https" => Scheme::Https,
        "http" => Scheme::Http,
        _ => return refuse("must be an http or https URL"),
    };
    if !url.username().is_empty() || url.password().is_some() {
        return refuse("must not carry credentials");
    }
    let host = match url.host() {
        Some(url::Host::Ipv4(ip)) => Host::Ip(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Host::Ip(IpAddr::V6(ip)),
        Some(url::Host::Domain(name)) => Host::Name(name.trim_end_matches('.').to_owned()),
        None => return refuse("must name a host"),
    };
    let port = url
        .port_or_known_default()
        .ok_or_else(|| Refusal("must name a port".into()))?;
    let target = Target {
        scheme,
        host,
        port,
        path_and_query: match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_owned(),
        },
        url: url.to_string(),
    };
    match &target.host {
        Host::Ip(ip) => check_addr(policy, &target, *ip)?,
        Host::Name(name) if is_localhost(name) => {}
        Host::Name(_) if scheme == Scheme::Http && !policy.allow_private => {
            return refuse("http:// is allowed only to loopback addresses; use https://");
        }
        Host::Name(_) => {}
    }
    Ok(target)
}

/// The send-time check of one address `target`'s host resolved to (or its literal address).
pub fn check_addr(policy: UrlPolicy, target: &Target, ip: IpAddr) -> Result<(), Refusal> {
    match class(ip) {
        Class::Loopback => Ok(()),
        Class::LinkLocal => refuse(format!(
            "{ip} is link-local (cloud metadata services live there) and is never called"
        )),
        Class::Special => refuse(format!("{ip} is not a unicast address that can be called")),
        Class::Private if policy.allow_private => Ok(()),
        Class::Private => refuse(format!(
            "{ip} is in a private range, which the operator has not allowed"
        )),
        Class::Public if target.scheme == Scheme::Https => Ok(()),
        Class::Public => refuse("http:// is allowed only to loopback addresses; use https://"),
    }
}

fn is_localhost(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost")
}

#[derive(Debug, PartialEq, Eq)]
enum Class {
    Loopback,
    LinkLocal,
    Private,
    /// Unspecified, multicast, broadcast, reserved and documentation addresses.
    Special,
    Public,
}

fn class(ip: IpAddr) -> Class {
    match ip {
        IpAddr::V4(v4) => class_v4(v4),
        IpAddr::V6(v6) => class_v6(v6),
    }
}

fn class_v4(ip: Ipv4Addr) -> Class {
    let [a, b, c, _] = ip.octets();
    if ip.is_loopback() {
        Class::Loopback
    } else if ip.is_link_local() {
        Class::LinkLocal
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        // 100.64.0.0/10 is carrier-grade NAT space, private in practice (and home to some metadata services).
        Class::Private
    } else if a == 0
        || a >= 224
        || ip.is_documentation()
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19))
    {
        Class::Special
    } else {
        Class::Public
    }
}

fn class_v6(ip: Ipv6Addr) -> Class {
    // Addresses that carry an IPv4 one are judged by it (mapped ::ffff:a.b.c.d and NAT64 64:ff9b::/96).
    if let Some(v4) = ip.to_ipv4_mapped() {
        return class_v4(v4);
    }
    let seg = ip.segments();
    if seg[0] == 0x64 && seg[1] == 0xff9b && seg[2..6] == [0, 0, 0, 0] {
        let [a, b] = seg[6].to_be_bytes();
        let [c, d] = seg[7].to_be_bytes();
        return class_v4(Ipv4Addr::new(a, b, c, d));
    }
    if ip.is_loopback() {
        Class::Loopback
    } else if ip == Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x254) || seg[0] & 0xffc0 == 0xfe80
    {
        // AWS's IPv6 metadata address is in the unique-local range, but is refused like link-local.
        Class::LinkLocal
    } else if seg[0] & 0xfe00 == 0xfc00 {
        Class::Private
    } else if ip.is_unspecified() || ip.is_multicast() || seg[0] == 0x2001 && seg[1] == 0x0db8 {
        Class::Special
    } else {
        Class::Public
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPEN: UrlPolicy = UrlPolicy {
        allow_private: false,
    };
    const PRIVATE: UrlPolicy = UrlPolicy {
        allow_private: true,
    };

    fn refused(policy: UrlPolicy, url: &str) -> bool {
        check_url(policy, url).is_err()
    }

    #[test]
    fn loopback_over_http_and_public_over_https_only() {
        let t = check_url(OPEN, "http://127.0.0.1:8080/hooks?x=1").unwrap();
        assert_eq!(t.scheme, Scheme::Http);
        assert_eq!(t.port, 8080);
        assert_eq!(t.path_and_query, "/hooks?x=1");
        assert_eq!(t.authority(), "127.0.0.1:8080");
        assert!(check_url(OPEN, "http://[::1]:9/").is_ok());
        assert!(check_url(OPEN, "http://localhost:3000/wh").is_ok());
        let t = check_url(OPEN, "https://Example.COM/wh").unwrap();
        assert_eq!((t.host, t.port), (Host::Name("example.com".into()), 443));
        assert!(check_url(OPEN, "https://93.184.216.34/").is_ok());
        assert!(refused(OPEN, "http://example.com/"));
        assert!(refused(OPEN, "http://93.184.216.34/"));
    }

    #[test]
    fn metadata_and_link_local_are_refused_even_when_private_is_allowed() {
        for url in [
            "http://169.254.169.254/latest/meta-data",
            "https://169.254.169.254/",
            "https://[fe80::1]/",
            "https://[fd00:ec2::254]/",
            "https://[::ffff:169.254.169.254]/",
            "https://[64:ff9b::a9fe:a9fe]/",
        ] {
            assert!(refused(PRIVATE, url), "{url}");
        }
    }

    #[test]
    fn private_ranges_need_the_operators_leave() {
        for url in [
            "http://10.0.0.5/",
            "https://172.16.3.4/",
            "https://192.168.1.1/",
            "https://100.100.100.200/",
            "https://[fd12::1]/",
            "https://[::ffff:10.1.2.3]/",
        ] {
            assert!(refused(OPEN, url), "{url}");
            assert!(check_url(PRIVATE, url).is_ok(), "{url}");
        }
        // A name over http may be private once allowed: the address is checked after DNS.
        assert!(check_url(PRIVATE, "http://receiver.internal/").is_ok());
    }

    #[test]
    fn special_addresses_and_bad_urls_are_refused() {
        for url in [
            "https://0.0.0.0/",
            "https://[::]/",
            "https://224.0.0.1/",
            "https://255.255.255.255/",
            "ftp://example.com/",
            "example.com/hook",
            "https://user:pw@example.com/",
            "file:///etc/passwd",
            "",
        ] {
            assert!(refused(PRIVATE, url), "{url:?}");
        }
        assert!(refused(
            OPEN,
            &format!("https://example.com/{}", "a".repeat(2048))
        ));
        // The bound counts characters, as the document's `maxLength` does, not bytes.
        let wide = format!("https://example.com/{}", "é".repeat(MAX_URL - 20));
        assert_eq!(
            (wide.chars().count(), wide.len() > MAX_URL),
            (MAX_URL, true)
        );
        assert!(check_url(OPEN, &wide).is_ok());
    }

    #[test]
    fn the_send_time_check_judges_each_resolved_address() {
        let name = check_url(OPEN, "https://hooks.example.com/").unwrap();
        assert!(check_addr(OPEN, &name, "93.184.216.34".parse().unwrap()).is_ok());
        assert!(check_addr(OPEN, &name, "127.0.0.1".parse().unwrap()).is_ok());
        assert!(check_addr(OPEN, &name, "169.254.169.254".parse().unwrap()).is_err());
        assert!(check_addr(OPEN, &name, "10.0.0.1".parse().unwrap()).is_err());
        assert!(check_addr(PRIVATE, &name, "10.0.0.1".parse().unwrap()).is_ok());
        let local = check_url(OPEN, "http://localhost:9/").unwrap();
        assert!(check_addr(OPEN, &local, "::1".parse().unwrap()).is_ok());
        assert!(check_addr(OPEN, &local, "93.184.216.34".parse().unwrap()).is_err());
    }
}
