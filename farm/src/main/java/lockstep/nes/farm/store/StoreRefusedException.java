package lockstep.nes.farm.store;

import java.sql.SQLException;

/**
 * A store that cannot be used as asked (it does not exist, its database holds another
 * application's tables, its schema is of another version): the user's input is wrong, not the
 * server. The message is one line naming the store (its password masked) and the reason.
 */
public final class StoreRefusedException extends SQLException {
    private static final long serialVersionUID = 1L;

    public StoreRefusedException(String message) {
        super(message);
    }
}
