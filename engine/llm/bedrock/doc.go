// Package bedrock is the wire adapter for the "bedrock-converse-stream"
// API: Amazon Bedrock's ConverseStream operation, used by the
// "amazon-bedrock" provider.
//
// A request is a JSON body POSTed to /model/{modelId}/converse-stream,
// signed with AWS Signature Version 4 (or sent with a Bedrock API key as a
// bearer token); the response is an AWS binary event stream whose frames
// carry JSON events (messageStart, contentBlockStart/Delta/Stop,
// messageStop, metadata) or modeled exceptions. The AWS pieces that are
// easy to get subtly wrong, the signer and the frame decoder, come from
// aws-sdk-go-v2; the credential chain is our own small one (environment,
// shared credentials and config files, credential_process, ECS container
// credentials), because the SDK's config package links SSO, STS and IMDS
// clients that every pi start would pay for.
package bedrock
