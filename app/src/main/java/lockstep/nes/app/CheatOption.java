package lockstep.nes.app;

import java.util.ArrayList;
import java.util.List;

import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.CheatException;
import lockstep.nes.core.cheat.Cheats;
import picocli.CommandLine.Option;

/**
 * {@code --cheat CODE} (repeatable), shared by the commands that run a ROM: Game Genie codes (6 or
 * 8 letters) and raw {@code ADDR:VALUE[:COMPARE]} codes, in effect from power-on.
 */
final class CheatOption {
    @Option(names = "--cheat", paramLabel = "CODE",
            description = "a Game Genie code (6 or 8 letters) or ADDR:VALUE[:COMPARE] in hex, substituted on CPU reads "
                    + "of that address (repeatable)")
    List<String> codes = new ArrayList<>();

    /** The cheats asked for (empty when none); a bad code is one line naming it. */
    List<Cheat> get() throws BadInput {
        final List<Cheat> out = new ArrayList<>();
        for (String code : codes) {
            try {
                out.add(Cheat.parse(code));
            } catch (CheatException e) {
                throw new BadInput(e.getMessage());
            }
        }
        if (out.size() > Cheats.MAX) {
            throw new BadInput("--cheat: at most " + Cheats.MAX + " codes, not " + out.size());
        }
        return out;
    }

    /** {@code cart} with the cheats asked for (unchanged without --cheat). */
    Cartridge apply(Cartridge cart) throws BadInput {
        final List<Cheat> cheats = get();
        return cheats.isEmpty() ? cart : cart.withCheats(cheats);
    }
}
