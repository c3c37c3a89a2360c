package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultSpecTest {
    @Test
    void parsesEveryKind() {
        FaultSpec f = FaultSpec.parse("ram-bitflip@1000:B:$0010:3");
        assertEquals(FaultSpec.Kind.RAM_BITFLIP, f.kind());
        assertEquals(1000, f.cycle());
        assertEquals(1, f.engine());
        assertEquals(0x10, f.address());
        assertEquals(3, f.bit());

        FaultSpec v = FaultSpec.parse("vram-bitflip@0x20:a");
        assertEquals(FaultSpec.Kind.VRAM_BITFLIP, v.kind());
        assertEquals(0, v.engine());
        assertEquals(0x20 % 2048, v.address());

        FaultSpec r = FaultSpec.parse("reg@5:A:cpu.a=$42");
        assertEquals("cpu.a", r.field());
        assertEquals(0x42, r.value());

        assertEquals(FaultSpec.Kind.SKIP_CYCLE, FaultSpec.parse("skip-cycle@7:1").kind());
        FaultSpec s = FaultSpec.parse("stall@9:B:250");
        assertEquals(250, s.value());
        assertEquals("stall@9:B:250", s.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ram-bitflip", "melt@5:A", "ram-bitflip@x:A", "ram-bitflip@5:C",
        "ram-bitflip@5:A:$800:0", "ram-bitflip@5:A:1:8", "ram-bitflip@5:A:1", "reg@5:A:a=1",
        "reg@5:A:cpu.a", "skip-cycle@5:A:1", "stall@5:A", "stall@5:A:-1", "ram-bitflip@-3:A"})
    void rejectsMalformedSpecsWithAReason(String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse(spec));
        assertTrue(e.getMessage().startsWith("bad --inject '"), e.getMessage());
    }
}
