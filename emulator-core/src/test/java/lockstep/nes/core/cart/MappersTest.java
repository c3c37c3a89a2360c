package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The board table: create, isSupported and the names agree for every mapper number. */
class MappersTest {
    private static Cartridge cart(int number) {
        return new Cartridge("m" + number + ".nes", new byte[65536], new byte[16384], number,
                Mirroring.HORIZONTAL, false, 8192, 0);
    }

    @Test
    void aNumberIsSupportedExactlyWhenABoardIsBuiltAndEverySupportedNumberHasAName() {
        int supported = 0;
        for (int n = 0; n < 4096; n++) {
            boolean built;
            try {
                assertNotNull(Mappers.create(cart(n)));
                built = true;
            } catch (RomFormatException e) {
                assertEquals("m" + n + ".nes: unsupported mapper " + Mappers.describe(n), e.getMessage());
                built = false;
            }
            assertEquals(built, Mappers.isSupported(n), "mapper " + n);
            if (built) {
                assertNotNull(Mappers.name(n), "mapper " + n);
                supported++;
            }
        }
        assertEquals(61, supported);
    }

    @Test
    void namesAndDescriptions() {
        assertEquals("MMC3/MMC6", Mappers.name(4));
        assertEquals("5 (MMC5)", Mappers.describe(5));
        assertEquals("6", Mappers.describe(6));
        assertNull(Mappers.name(256));
        assertThrows(RomFormatException.class, () -> Mappers.create(cart(82)));
    }

    /**
     * The boards of NesCartDB's North American licensed library (NROM, CNROM, UNROM, BNROM,
     * AxROM, MMC1, MMC3/MMC6/TxSROM/TQROM/DxROM, MMC2, MMC5, CPROM, GxROM, FME-7, Taito TC0690, the
     * CNROM protection board) are supported.
     */
    @Test
    void theNorthAmericanLicensedBoardsAreSupported() {
        for (int mapper : new int[] {0, 1, 2, 3, 4, 5, 7, 9, 13, 34, 48, 66, 69, 118, 119, 155, 185, 206}) {
            assertTrue(Mappers.isSupported(mapper), Mappers.describe(mapper));
        }
    }
}
