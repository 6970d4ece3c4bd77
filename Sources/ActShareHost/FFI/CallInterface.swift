import ActShareCore
import CLibFFI

/// A libffi call interface prepared from a hook's declaration: the C types of its
/// arguments (in declaration order, `item.data` taking two) and of its return.
final class CallInterface {
    /// One C argument value.
    enum Argument {
        case pointer(UnsafeRawPointer?)
        case unsigned(UInt64)
    }

    let hook: HookDeclaration
    private let cif: UnsafeMutablePointer<ffi_cif>
    private let argumentTypes: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
    let argumentCount: Int

    init(hook: HookDeclaration) throws {
        self.hook = hook
        var types: [UnsafeMutablePointer<ffi_type>] = []
        for argument in hook.arguments {
            switch argument {
            case .itemSize, .itemsCount: types.append(cffi_type_uint64())
            case .itemData: types += [cffi_type_pointer(), cffi_type_uint64()]
            default: types.append(cffi_type_pointer())
            }
        }
        let returnType: UnsafeMutablePointer<ffi_type>
        switch hook.returns {
        case .status, .verdict: returnType = cffi_type_sint32()
        case .bool: returnType = cffi_type_uint8()
        case .string: returnType = cffi_type_pointer()
        case .void: returnType = cffi_type_void()
        }
        argumentCount = types.count
        argumentTypes = .allocate(capacity: max(types.count, 1))
        for (index, type) in types.enumerated() { argumentTypes[index] = type }
        cif = .allocate(capacity: 1)
        let status = ffi_prep_cif(cif, cffi_default_abi(), UInt32(types.count), returnType, argumentTypes)
        guard status == FFI_OK else {
            cif.deallocate()
            argumentTypes.deallocate()
            throw ActShareError(.providerFailed, "libffi cannot prepare a call to '\(hook.symbol)' (status \(status.rawValue))", at: hook.location)
        }
    }

    deinit {
        cif.deallocate()
        argumentTypes.deallocate()
    }

    /// Calls `function` with `arguments` and returns the raw return value, widened to
    /// `ffi_arg` as libffi returns integers (0 for `void`).
    func call(_ function: UnsafeMutableRawPointer, arguments: [Argument]) -> UInt64 {
        precondition(arguments.count == argumentCount, "argument count does not match the call interface")
        let storage = UnsafeMutablePointer<UInt64>.allocate(capacity: max(arguments.count, 1))
        let values = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(arguments.count, 1))
        defer {
            storage.deallocate()
            values.deallocate()
        }
        for (index, argument) in arguments.enumerated() {
            switch argument {
            case .pointer(let pointer): storage[index] = UInt64(UInt(bitPattern: pointer))
            case .unsigned(let value): storage[index] = value
            }
            values[index] = UnsafeMutableRawPointer(storage + index)
        }
        var result: UInt64 = 0
        let entry = unsafeBitCast(function, to: (@convention(c) () -> Void).self)
        withUnsafeMutablePointer(to: &result) { resultPointer in
            ffi_call(cif, entry, resultPointer, values)
        }
        return result
    }
}
