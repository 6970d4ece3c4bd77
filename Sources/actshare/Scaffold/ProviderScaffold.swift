/// The files of a new provider, as `actshare providers new` writes them.
///
/// Each language gets the same provider: a manifest with one activity (`ID.describe`,
/// which hands back a line about each item, with progress and cancellation), its source,
/// and `build.sh`, which finds actshare through pkg-config (`actshare.pc`, whose
/// directory is written into the script) and builds `libNAME.so` beside the manifest.
struct ProviderScaffold {
    struct File {
        var name: String
        var contents: String
        var executable = false
    }

    let id: String
    let language: ProviderLanguage
    /// The directory of `actshare.pc`.
    let pkgConfigDirectory: String
    /// The path of the actshare-provider crate, for Rust.
    let rustCrate: String

    /// A C identifier from the id's last part: `org.example.hello-world` → `hello_world`.
    var name: String {
        let last = id.split(separator: ".").last.map(String.init) ?? id
        let identifier = String(last.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return identifier.first?.isLetter == true ? identifier : "p_" + identifier
    }

    /// `Hello World`, for the manifest's `name`.
    var displayName: String {
        name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    var files: [File] {
        [File(name: "provider.yaml", contents: manifest)] + sources
            + [File(name: "build.sh", contents: buildScript, executable: true)]
    }

    private var manifest: String {
        """
        # \(displayName): an actshare provider (written by `actshare providers new`).
        # The manifest's keys are in docs/PLUGINS.md; check it with `actshare providers check`.
        schema: actshare/provider@1
        id: \(id)
        name: \(displayName)
        version: 0.1.0
        library: lib\(name).so
        # What it may do in its sandbox (docs/PLUGINS.md, Permissions). This is the default:
        # read the shared items, write only its $TMPDIR, no network, no programs. Add places
        # to read or write, network: true or exec: true as the provider needs them.
        permissions:
          read: [items]
        activities:
          - type: \(id).describe
            title: Describe Items
            image: dialog-information
            category: action
            accepts:
              kinds: [file, url, text, data]
              max-items: 100
            hooks:
              can-perform: \(name)_can_perform
              perform: \(name)_perform

        """
    }

    private var sources: [File] {
        switch language {
        case .c: return [File(name: "\(name).c", contents: cSource)]
        case .cpp: return [File(name: "\(name).cpp", contents: cppSource)]
        case .rust: return [File(name: "Cargo.toml", contents: cargoManifest), File(name: "src/lib.rs", contents: rustSource)]
        case .swift: return [File(name: "Provider.swift", contents: swiftSource)]
        }
    }

    private var buildScript: String {
        let build: String
        switch language {
        case .c:
            build = "${CC:-cc} -shared -fPIC -fvisibility=hidden -O2 -Wall -Wextra $(pkg-config --cflags actshare) \(name).c -o lib\(name).so"
        case .cpp:
            build = "${CXX:-c++} -std=c++17 -shared -fPIC -fvisibility=hidden -O2 -Wall -Wextra $(pkg-config --cflags actshare) \(name).cpp -o lib\(name).so"
        case .rust:
            build = """
                cargo build --release --offline --target-dir target
                cp target/release/lib\(name).so .
                """
        case .swift:
            build = """
                # -static-stdlib: the library carries its own Swift runtime, whatever actshare runs on.
                swiftc -emit-library -parse-as-library -static-stdlib -O -module-name \(name) \\
                    -I "$(pkg-config --variable=modulemapdir actshare)" \\
                    "$(pkg-config --variable=swiftsources actshare)"/*.swift Provider.swift -o lib\(name).so
                """
        }
        return """
            #!/bin/sh
            # Builds lib\(name).so beside the manifest (written by `actshare providers new`).
            set -eu
            cd "$(dirname "$0")"
            # Where actshare.pc is, for this actshare; yours may differ once installed elsewhere.
            PKG_CONFIG_PATH="\(pkgConfigDirectory)${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
            export PKG_CONFIG_PATH
            \(build)

            """
    }

    private var cSource: String {
        """
        /* \(displayName): an actshare provider (written by `actshare providers new`). */
        #include <actshare/provider.h>

        #include <stdio.h>

        /* 1: the activity can perform on the request's items; 0: it cannot (say why with
         * actshare_decline). Saying 1, it may offer targets: the devices, people, apps or
         * places it can go to, which the user picks from, and perform then reads the one
         * chosen with actshare_request_target(request). For example:
         *
         *     actshare_target beta = {sizeof beta, ACTSHARE_TARGET_DEVICE, "beta-id", "beta", "KDE Connect", "phone"};
         *     actshare_add_target(request, &beta);
         */
        ACTSHARE_EXPORT int32_t \(name)_can_perform(const actshare_request *request) {
            return request->item_count > 0;
        }

        /* Hands back a line about each item. */
        ACTSHARE_EXPORT int32_t \(name)_perform(const actshare_request *request, actshare_session *session) {
            for (size_t i = 0; i < request->item_count; i++) {
                if (session->is_cancelled(session)) return ACTSHARE_STATUS_CANCELLED;
                const actshare_item *item = &request->items[i];
                char line[4096];
                snprintf(line, sizeof line, "%s (%s, %llu bytes)", item->uri ? item->uri : "text", item->content_type,
                         (unsigned long long)item->size);
                if (session->return_item(session, ACTSHARE_ITEM_TEXT, line, NULL) != 0) {
                    session->set_error(session, "actshare refused the line");
                    return ACTSHARE_STATUS_FAILED;
                }
                session->progress(session, (double)(i + 1) / (double)request->item_count);
            }
            return ACTSHARE_STATUS_DONE;
        }

        """
    }

    private var cppSource: String {
        """
        // \(displayName): an actshare provider (written by `actshare providers new`).
        #include <actshare/provider.h>

        #include <exception>
        #include <string>

        namespace {
        std::string describe(const actshare_item &item) {
            return std::string(item.uri ? item.uri : "text") + " (" + item.content_type + ", " + std::to_string(item.size) + " bytes)";
        }
        }  // namespace

        // 1: the activity can perform on the request's items; 0: it cannot (say why with
        // actshare_decline). Saying 1, it may offer targets (devices, people, apps, places),
        // and perform reads the one chosen with actshare_request_target(request):
        //     actshare_target beta = {sizeof beta, ACTSHARE_TARGET_DEVICE, "beta-id", "beta", "KDE Connect", "phone"};
        //     actshare_add_target(request, &beta);
        extern "C" ACTSHARE_EXPORT int32_t \(name)_can_perform(const actshare_request *request) {
            return request->item_count > 0 ? 1 : 0;
        }

        // Hands back a line about each item. No exception may cross into actshare: each is
        // caught here and becomes the failure's message.
        extern "C" ACTSHARE_EXPORT int32_t \(name)_perform(const actshare_request *request, actshare_session *session) {
            try {
                for (size_t i = 0; i < request->item_count; i++) {
                    if (session->is_cancelled(session)) return ACTSHARE_STATUS_CANCELLED;
                    const std::string line = describe(request->items[i]);
                    if (session->return_item(session, ACTSHARE_ITEM_TEXT, line.c_str(), nullptr) != 0) {
                        session->set_error(session, "actshare refused the line");
                        return ACTSHARE_STATUS_FAILED;
                    }
                    session->progress(session, double(i + 1) / double(request->item_count));
                }
                return ACTSHARE_STATUS_DONE;
            } catch (const std::exception &error) {
                session->set_error(session, error.what());
            } catch (...) {
                session->set_error(session, "an unknown C++ exception");
            }
            return ACTSHARE_STATUS_FAILED;
        }

        """
    }

    private var cargoManifest: String {
        """
        [package]
        name = "\(name)"
        version = "0.1.0"
        edition = "2021"

        [lib]
        path = "src/lib.rs"
        crate-type = ["cdylib"]

        [dependencies]
        # pkg-config --variable=rustcrate actshare
        actshare-provider = { path = "\(rustCrate)" }

        # A package of its own, in no enclosing workspace.
        [workspace]

        """
    }

    private var rustSource: String {
        """
        //! \(displayName): an actshare provider (written by `actshare providers new`).
        use actshare_provider::{export_can_perform, export_perform, Request, Session, Status};

        // True: the activity can perform on the request's items. Saying true, it may offer
        // targets (devices, people, apps, places), and perform reads the one chosen with
        // request.target():
        //     request.add_target(&actshare_provider::Target { id: "beta-id", title: "beta",
        //         subtitle: Some("KDE Connect"), image: Some("phone"), kind: actshare_provider::TargetKind::Device });
        export_can_perform!(\(name)_can_perform, |request: &Request| request.items().next().is_some());

        // Hands back a line about each item. A panic here is caught and becomes the failure.
        export_perform!(\(name)_perform, |request: &Request, session: &Session| {
            let items: Vec<_> = request.items().collect();
            for (index, item) in items.iter().enumerate() {
                if session.is_cancelled() {
                    return Ok(Status::Cancelled);
                }
                let line = format!("{} ({}, {} bytes)", item.uri().unwrap_or("text"), item.content_type(), item.size());
                session.return_text(&line, None)?;
                session.progress((index + 1) as f64 / items.len() as f64);
            }
            Ok(Status::Done)
        });

        """
    }

    private var swiftSource: String {
        """
        // \(displayName): an actshare provider (written by `actshare providers new`).
        // build.sh compiles it with actshare's Swift wrappers (ProviderRequest, ProviderSession).
        import CActShare

        /// 1: the activity can perform on the request's items; 0: it cannot. Saying 1, it may
        /// offer targets (devices, people, apps, places), and perform reads the one chosen
        /// as `request.target`:
        ///     request.addTarget(id: "beta-id", title: "beta", subtitle: "KDE Connect", image: "phone", kind: .device)
        @_cdecl("\(name)_can_perform")
        public func canPerform(_ request: UnsafePointer<actshare_request>?) -> Int32 {
            (ProviderRequest(request)?.items.isEmpty ?? true) ? 0 : 1
        }

        /// Hands back a line about each item. An error thrown here becomes the failure.
        @_cdecl("\(name)_perform")
        public func perform(_ request: UnsafePointer<actshare_request>?, _ session: UnsafeMutablePointer<actshare_session>?) -> Int32 {
            ProviderSession.run(request, session) { request, session in
                let items = request.items
                for (index, item) in items.enumerated() {
                    if session.isCancelled { return .cancelled }
                    try session.returnItem(.text, "\\(item.uri ?? "text") (\\(item.contentType), \\(item.size) bytes)")
                    session.progress(Double(index + 1) / Double(items.count))
                }
                return .done
            }
        }

        """
    }
}
