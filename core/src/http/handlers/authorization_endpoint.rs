//! `/authorization-endpoint`: a client's real-time decision endpoint (README, "Real-time
//! authorization decisions"). The secret is in the answer that made it (the first PUT, a rotation)
//! and nowhere else.

use super::{Call, Command, command};
use crate::domain::authorizations::endpoint;
use crate::domain::push::signature::Secret;
use crate::domain::push::url_policy;
use crate::error::ApiResult;
use crate::http::views::AuthorizationEndpointView;
use crate::http::{Response, parse, reply};

fn settings(c: &Call) -> ApiResult<endpoint::Settings> {
    let policy = c.config.url_policy;
    parse::decisions::settings(c.json_body()?, |url| {
        url_policy::check_url(policy, url)
            .map(drop)
            .map_err(|refusal| refusal.to_string())
    })
}

pub fn check_put(c: &mut Call) -> ApiResult<Command> {
    command(settings(c)?)
}

pub fn put(c: &mut Call) -> ApiResult<Response> {
    let settings = c.command::<endpoint::Settings>()?.clone();
    let vault = super::cards::vault(c)?;
    let env = c.scope.env;
    let (saved, secret) = endpoint::put(&mut c.scope, &vault, settings, || {
        Secret::generate(env).to_whsec()
    })?;
    Ok(reply::ok(
        "Authorization endpoint set successfully",
        &AuthorizationEndpointView::new(&saved, secret.as_deref()),
    ))
}

pub fn get(c: &mut Call) -> ApiResult<Response> {
    let found = endpoint::find(&mut c.scope)?;
    Ok(reply::ok(
        "Authorization endpoint fetched successfully",
        &AuthorizationEndpointView::new(&found, None),
    ))
}

pub fn delete(c: &mut Call) -> ApiResult<Response> {
    let deleted = endpoint::delete(&mut c.scope)?;
    Ok(reply::ok(
        "Authorization endpoint deleted successfully",
        &AuthorizationEndpointView::new(&deleted, None),
    ))
}

pub fn rotate_secret(c: &mut Call) -> ApiResult<Response> {
    let vault = super::cards::vault(c)?;
    let secret = Secret::generate(c.scope.env).to_whsec();
    let (saved, secret) = endpoint::rotate(&mut c.scope, &vault, secret)?;
    let mut response = reply::ok(
        "Authorization endpoint secret rotated successfully",
        &AuthorizationEndpointView::new(&saved, Some(&secret)),
    );
    // The idempotency record keeps this instead: a secret is shown once and stored only sealed.
    let replay = reply::ok(
        "Authorization endpoint secret already rotated for this Idempotency-Key; a secret is shown only once",
        &AuthorizationEndpointView::new(&saved, None),
    );
    response.replay_body = Some(replay.body);
    Ok(response)
}
