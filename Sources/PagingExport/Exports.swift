// What an export works with (JSONValue, transports, RetryingTransport), with this module.
@_exported public import PagingGraphQLClient
