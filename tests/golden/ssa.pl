% ---- twice_plus

twice_plus([X],[R],H0,H0,ok,twice_plus(1,[])) :-
    X1 #= (X + 1),
    X2 #= (X1 * 2),
    Y #= (X2 - 3),
    R #= Y.   % lines 2, 3, 4, 5
