import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

extension HTTPClientTransport {
    /// A `URLError` with a message, the URL it failed on, and the error underneath.
    static func error(_ code: URLError.Code, url: URL, _ message: String, underlying: (any Error)?)
        -> URLError
    {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, NSURLErrorFailingURLErrorKey: url]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return URLError(code, userInfo: info)
    }

    /// An error of AsyncHTTPClient or SwiftNIO as URLSession would have given it.
    static func translate(_ error: any Error, url: URL) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        if let error = error as? URLError { return error }
        let (code, summary) = classify(error)
        return Self.error(code, url: url, "\(summary) (\(String(describing: error)))", underlying: error)
    }

    /// The `URLError` code of an error, and a few words on it.
    static func classify(_ error: any Error) -> (URLError.Code, String) {
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .deadlineExceeded, .writeTimeout: return (.timedOut, "the request timed out")
            case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return (.timedOut, "the connection timed out")
            case .remoteConnectionClosed, .bodyLengthMismatch, .uncleanShutdown:
                return (.networkConnectionLost, "the connection was lost")
            case .cancelled:
                // Not the caller's cancellation (that is `Task.isCancelled`): the client's, of a
                // request on a connection that closed first (an HTTP/2 GOAWAY).
                return (.networkConnectionLost, "the connection closed before the request was sent")
            case .invalidURL, .emptyHost, .emptyScheme: return (.badURL, "the URL is not one to send to")
            case .proxyAuthenticationRequired, .invalidProxyResponse, .httpProxyHandshakeTimeout:
                return (.cannotConnectToHost, "the proxy refused the connection")
            default:
                return (.badServerResponse, "the server's answer could not be read")
            }
        }
        if let error = error as? NIOConnectionError {
            let resolved =
                error.dnsAError == nil || error.dnsAAAAError == nil || !error.connectionErrors.isEmpty
            return resolved
                ? (.cannotConnectToHost, "could not connect to the server")
                : (.cannotFindHost, "could not find the server's host")
        }
        if let error = error as? IOError { return classify(errno: error.errnoCode) }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return (.timedOut, "the connection timed out")
            default: return (.networkConnectionLost, "the connection was lost")
            }
        }
        if let error = error as? HTTPParserError {
            // The end of the connection before the end of the body it announced.
            if error == .invalidEOFState { return (.networkConnectionLost, "the connection was lost") }
            return (.badServerResponse, "the server's answer is not HTTP")
        }
        if let error = error as? NIOSSLError {
            if case .uncleanShutdown = error { return (.networkConnectionLost, "the connection was lost") }
            return (.secureConnectionFailed, "the TLS connection failed")
        }
        if error is BoringSSLError { return (.secureConnectionFailed, "the TLS connection failed") }
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            if case .limit = error {
                return (
                    .dataLengthExceedsMaximum,
                    "the response is larger than the transport's limit, uncompressed"
                )
            }
            return (.cannotDecodeContentData, "the compressed body could not be read")
        }
        if error is SocketAddressError { return (.cannotFindHost, "could not find the server's host") }
        #if canImport(Network)
            if let found = classifyNetworkFramework(error) { return found }
        #endif
        return (.unknown, "the request failed")
    }

    /// The `URLError` code of a socket's `errno`: SwiftNIO's on Linux, Network.framework's on
    /// Apple platforms.
    static func classify(errno code: Int32) -> (URLError.Code, String) {
        switch code {
        case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH:
            return (.cannotConnectToHost, "could not connect to the server")
        case ETIMEDOUT: return (.timedOut, "the connection timed out")
        default: return (.networkConnectionLost, "the connection was lost")
        }
    }
}
