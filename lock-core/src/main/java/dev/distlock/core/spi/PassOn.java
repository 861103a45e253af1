package dev.distlock.core.spi;

/**
 * The outcome of {@link PassingOn#passOn}: a release and the next token's try, made together.
 *
 * @param released what {@link LockStore#release} would have answered for the releasing token
 * @param next what {@link LockStore#tryAcquire} would have answered for the next token
 */
public record PassOn(boolean released, AcquireResult next) {
}
