// On Apple platforms AsyncHTTPClient runs on Network.framework (NIOTransportServices), whose
// errors are not SwiftNIO's: this maps them to the codes the SwiftNIO ones get
// (HTTPClientTransport+Errors.swift), the codes URLSession gives. Never compiled on Linux.
#if canImport(Network)
    import AsyncHTTPClient
    import Foundation
    import Network

    extension HTTPClientTransport {
        /// The `URLError` code of a Network.framework error, or `nil` for another error.
        static func classifyNetworkFramework(_ error: any Error) -> (URLError.Code, String)? {
            if let error = error as? HTTPClient.NWPOSIXError {
                return classify(errno: error.errorCode.rawValue)
            }
            if error is HTTPClient.NWTLSError {
                return (.secureConnectionFailed, "the TLS connection failed")
            }
            guard let error = error as? NWError else { return nil }
            switch error {
            case .posix(let code): return classify(errno: code.rawValue)
            case .dns: return (.cannotFindHost, "could not find the server's host")
            case .tls: return (.secureConnectionFailed, "the TLS connection failed")
            default: return nil
            }
        }
    }
#endif
