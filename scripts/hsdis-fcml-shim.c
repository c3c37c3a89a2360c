/*
 * HotSpot's disassembler entry point for Debian's FCML plugin (libhsdis0-fcml), which exports only
 * the older one. JDK 13 and later look up decode_instructions_virtual; this library gives it and
 * passes the call on to the plugin's decode_instructions, over the copy of the code it is given.
 *
 *   apt-get install libhsdis0-fcml
 *   gcc -shared -fPIC -O2 -o hsdis-amd64.so scripts/hsdis-fcml-shim.c -ldl
 *   cp hsdis-amd64.so "$JAVA_HOME/lib/server/"     # or put its folder on LD_LIBRARY_PATH
 *
 * Then -XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=print,CLASS::METHOD prints the method's
 * machine code (benchmarks/README.md, "Instruction by instruction").
 */
#include <dlfcn.h>
#include <stdint.h>

typedef void *(*event_callback)(void *, const char *, void *);
typedef int (*printf_callback)(void *, const char *, ...);
typedef void *(*decode_fn)(void *, void *, event_callback, void *, printf_callback, void *, const char *);

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer, uintptr_t length,
                                  event_callback event, void *event_stream, printf_callback print,
                                  void *print_stream, const char *options, int newline) {
    static decode_fn decode;
    (void) start_va;
    (void) end_va;
    (void) newline;
    if (decode == 0) {
        void *plugin = dlopen("libhsdis.so.0", RTLD_NOW);
        if (plugin == 0) {
            return 0;
        }
        decode = (decode_fn) dlsym(plugin, "decode_instructions");
        if (decode == 0) {
            return 0;
        }
    }
    return decode(buffer, buffer + length, event, event_stream, print, print_stream, options);
}
